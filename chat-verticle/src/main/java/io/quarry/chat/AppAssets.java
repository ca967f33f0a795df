package io.quarry.chat;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.ext.web.RoutingContext;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The UI's own scripts and styles ({@code /js/*.js}, {@code /css/*.css}): each read from the class path the first time
 * a page asks for it, then served from memory with an ETag under {@code Cache-Control: no-cache}. Their paths name no
 * version, so a browser asks each time whether its copy is current and, when it is, gets 304 without the body: served
 * by Vert.x's static handler without caching headers, every load of a page moved all of them again (the main page's 55
 * modules and two style sheets, 233 KB). The tag is {@link HeldFile}'s, of the bytes, so it names the same
 * file on every node of a cluster and a new build's file on a node that runs it. One instance per chat verticle, used
 * on its event loop only; it holds at most the files under {@code webroot/js} and {@code webroot/css} (the modules,
 * the three pages' bundles over their entries, the style sheets: 500 KB) and those asked for gzipped, gzipped.
 */
final class AppAssets {

  /** Only a plain name directly under one of the two folders: nothing else in webroot is served from here. */
  private static final Pattern NAME = Pattern.compile("/(js/[a-z0-9-]+\\.js|css/[a-z0-9-]+\\.css)");
  private static final String CACHING = "no-cache";

  private final Vertx vertx;
  /** A file being read, or read; a name the class path lacks is not kept, so that names cannot grow the map. */
  private final Map<String, Future<HeldFile>> files = new HashMap<>();

  AppAssets(Vertx vertx) {
    this.vertx = vertx;
  }

  /** {@code GET|HEAD /js/*, /css/*}: a file of the UI's, or on to the next route (which answers 404, or 405). */
  void handle(RoutingContext ctx) {
    String path = ctx.normalizedPath();
    if (!HeldFile.readable(ctx) || !NAME.matcher(path).matches()) {
      ctx.next();
      return;
    }
    file(path.substring(1)).onComplete(read -> {
      if (read.failed() || read.result() == null) {
        ctx.next();
      } else {
        read.result().send(ctx, CACHING);
      }
    });
  }

  private Future<HeldFile> file(String name) {
    Future<HeldFile> known = files.get(name);
    if (known != null) {
      return known;
    }
    Future<HeldFile> reading = vertx.executeBlocking(() -> HeldFile.read("webroot/" + name), false);
    files.put(name, reading);
    return reading.andThen(read -> {
      if (read.failed() || read.result() == null) {
        files.remove(name, reading);
      }
    });
  }
}
