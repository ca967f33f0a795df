package io.quarry.chat;

import io.vertx.core.Vertx;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The front-end libraries the page loads, unpacked from their jars before the server listens. Vert.x unpacks a file of
 * the class path (with every file beside it) the first time it is asked for, under a lock: left to the first page
 * load, that held the event loops for as long as writing some 10 MB of libraries out took (up to 1.5 s on a busy
 * machine).
 */
final class StaticAssets {

  static final String WEBJARS = "META-INF/resources/webjars/";
  private static final Pattern LOADED = Pattern.compile("webjars/([^\"'?#]+)");

  private StaticAssets() {
  }

  /** Blocking: the libraries the page loads, each resolved (and so unpacked) as the static handler will. */
  static List<String> unpack(Vertx vertx) {
    List<String> loaded = loaded();
    loaded.forEach(vertx.fileSystem()::propsBlocking);
    return loaded;
  }

  /** The class-path files of the libraries index.html names. */
  static List<String> loaded() {
    List<String> loaded = new ArrayList<>();
    Matcher named = LOADED.matcher(index());
    while (named.find()) {
      loaded.add(WEBJARS + named.group(1));
    }
    return loaded;
  }

  private static String index() {
    try (InputStream in = StaticAssets.class.getClassLoader().getResourceAsStream("webroot/index.html")) {
      if (in == null) {
        throw new IllegalStateException("webroot/index.html is not on the class path");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
