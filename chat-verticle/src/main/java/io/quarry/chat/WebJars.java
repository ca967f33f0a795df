package io.quarry.chat;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.RoutingContext;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.CRC32;

/**
 * The front-end libraries the pages load: the files of webjars that {@link #NAMERS} name, read from the class path into
 * memory before the server listens (under a megabyte) and served from there. Vert.x's static handler unpacked each
 * file's whole directory to its file cache first, some 18 MB in 800 files: 1.5 s of every start. A library file no
 * page or chart.js names is not served.
 */
final class WebJars {

  static final String PREFIX = "/webjars/";
  /** The pages, and the script that loads Vega when a page draws its first chart. */
  static final List<String> NAMERS = List.of("index.html", "board.html", "shared.html", "js/chart.js");
  private static final String CLASS_PATH = "META-INF/resources/webjars/";
  private static final Pattern NAMED = Pattern.compile("/webjars/([^\"'?#]+)");
  /** The files' paths are versioned, so a browser may keep one for a day without asking. */
  private static final String CACHING = "public, max-age=86400";

  private record File(Buffer body, String etag, String type) {
  }

  private final Map<String, File> files;

  private WebJars(Map<String, File> files) {
    this.files = files;
  }

  /** Blocking: reads every library file the pages (and chart.js) name. */
  static WebJars load() {
    Map<String, File> files = new LinkedHashMap<>();
    for (String name : named()) {
      byte[] bytes = read(CLASS_PATH + name);
      if (bytes == null) {
        throw new IllegalStateException("A page loads " + PREFIX + name + ", which is not on the class path");
      }
      files.put(name, new File(Buffer.buffer(bytes), etag(bytes), type(name)));
    }
    return new WebJars(files);
  }

  /** The library files the pages (and chart.js) name, as paths under {@link #PREFIX}. */
  static List<String> named() {
    List<String> named = new ArrayList<>();
    for (String namer : NAMERS) {
      byte[] text = read("webroot/" + namer);
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
    HttpMethod method = ctx.request().method();
    File file = files.get(ctx.normalizedPath().substring(PREFIX.length()));
    if (file == null || !(method.equals(HttpMethod.GET) || method.equals(HttpMethod.HEAD))) {
      ctx.next();
      return;
    }
    ctx.response().putHeader(HttpHeaders.CACHE_CONTROL, CACHING).putHeader(HttpHeaders.ETAG, file.etag());
    if (file.etag().equals(ctx.request().getHeader(HttpHeaders.IF_NONE_MATCH))) {
      ctx.response().setStatusCode(304).end();
      return;
    }
    ctx.response().putHeader(HttpHeaders.CONTENT_TYPE, file.type()).end(file.body());
  }

  /** A class-path resource's bytes, or null when there is none (blocks). */
  static byte[] read(String resource) {
    try (InputStream in = WebJars.class.getClassLoader().getResourceAsStream(resource)) {
      return in == null ? null : in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * A file's CRC-32 and length: its path already names its library's version, so the tag only has to tell one build's
   * bytes from another's. SHA-256 of the libraries cost every start ~50 ms of CPU in a JVM whose digest code is still
   * cold; CRC-32 is intrinsic from the first call (1 ms).
   */
  static String etag(byte[] bytes) {
    CRC32 crc = new CRC32();
    crc.update(bytes);
    return "\"" + Long.toHexString(crc.getValue()) + "-" + Integer.toHexString(bytes.length) + "\"";
  }

  private static String type(String name) {
    return name.endsWith(".css") ? "text/css; charset=utf-8" : "text/javascript; charset=utf-8";
  }
}
