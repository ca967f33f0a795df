package io.quarry.chat;

import io.vertx.ext.web.RoutingContext;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The front-end libraries the pages load: the files of webjars that {@link #NAMERS} name, read from the class path into
 * memory before the server listens (under a megabyte; gzipped too, once asked for so, about 300 KB more) and served
 * from there. Vert.x's static handler unpacked each file's whole directory to its file cache first, some 18 MB in 800
 * files: 1.5 s of every start. A library file no page or chart.js names is not served.
 */
final class WebJars {

  static final String PREFIX = "/webjars/";
  /** The pages, and the script that loads Vega when a page draws its first chart. */
  static final List<String> NAMERS = List.of("index.html", "board.html", "shared.html", "js/chart.js");
  private static final String CLASS_PATH = "META-INF/resources/webjars/";
  private static final Pattern NAMED = Pattern.compile("/webjars/([^\"'?#]+)");
  /** The files' paths are versioned, so a browser may keep one for a day without asking. */
  private static final String CACHING = "public, max-age=86400";

  private final Map<String, HeldFile> files;

  private WebJars(Map<String, HeldFile> files) {
    this.files = files;
  }

  /** Blocking: reads every library file the pages (and chart.js) name. */
  static WebJars load() {
    Map<String, HeldFile> files = new LinkedHashMap<>();
    for (String name : named()) {
      HeldFile file = HeldFile.read(CLASS_PATH + name);
      if (file == null) {
        throw new IllegalStateException("A page loads " + PREFIX + name + ", which is not on the class path");
      }
      files.put(name, file);
    }
    return new WebJars(files);
  }

  /** The library files the pages (and chart.js) name, as paths under {@link #PREFIX}. */
  static List<String> named() {
    List<String> named = new ArrayList<>();
    for (String namer : NAMERS) {
      byte[] text = HeldFile.bytes("webroot/" + namer);
      if (text == null) {
        throw new IllegalStateException("webroot/" + namer + " is not on the class path");
      }
      Matcher found = NAMED.matcher(new String(text, StandardCharsets.UTF_8));
      while (found.find()) {
        if (!named.contains(found.group(1))) {
          named.add(found.group(1));
        }
      }
    }
    return named;
  }

  /** {@code GET|HEAD /webjars/*}: a named file, or on to the next route (which answers 404, or 405 to other methods). */
  void handle(RoutingContext ctx) {
    HeldFile file = files.get(ctx.normalizedPath().substring(PREFIX.length()));
    if (file == null || !HeldFile.readable(ctx)) {
      ctx.next();
      return;
    }
    file.send(ctx, CACHING);
  }
}
