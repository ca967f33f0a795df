package io.quarry.chat;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * The UI's own files, {@code webroot} on the class path: the pages, their scripts and styles, icons and the sample
 * data. Each is read the first time it is asked for, then served from memory with an ETag under {@code Cache-Control:
 * no-cache}: their paths name no version, so a browser asks each time whether its copy is current and, when it is,
 * gets 304 without the body (served by Vert.x's static handler without caching headers, every load of a page moved its
 * 55 modules and two style sheets again, 233 KB). The tag is {@link HeldFile}'s, of the bytes, so it names the same
 * file on every node of a cluster and a new build's file on a node that runs it. Nothing is unpacked to disk: Vert.x
 * made a {@code vertx-cache-*} directory in the temporary directory at every start, and its static handler unpacked
 * the whole of {@code webroot} into it (75 files, 760 KB) when anyone asked for one of its folders; a node killed
 * outright left it there for good. The node turns Vert.x's class-path resolving off, so that it makes no such
 * directory at all. One instance per chat verticle, used on its event loop only; it holds at most the files of {@code
 * webroot} (576 KB) and the text ones asked for gzipped, gzipped.
 */
final class Webroot {

  /** Folders and a file's name, no segment starting with a dot (the name's type is checked apart). */
  private static final Pattern NAME = Pattern.compile("(?:[A-Za-z0-9_-][A-Za-z0-9._-]*/)*[A-Za-z0-9_-][A-Za-z0-9._-]*");
  private static final String INDEX = "index.html";
  private static final String CACHING = "no-cache";

  private final Vertx vertx;
  /** A file being read, or read; a name the class path lacks is not kept, so that names cannot grow the map. */
  private final Map<String, Future<HeldFile>> files = new HashMap<>();

  Webroot(Vertx vertx) {
    this.vertx = vertx;
  }

  /** {@code GET|HEAD} of a file of the UI's, {@code /} its main page; anything else on to the router's 404 (or 405). */
  void handle(RoutingContext ctx) {
    String path = ctx.normalizedPath();
    String name = path.equals("/") ? INDEX : path.substring(1);
    if (!HeldFile.readable(ctx) || !NAME.matcher(name).matches() || FileType.of(name) == null) {
      ctx.next();
      return;
    }
    file(name).onComplete(read -> {
      if (read.failed()) {
        // The jar could not be read: the node's fault, not a missing file.
        ctx.fail(read.cause());
      } else if (read.result() == null) {
        ctx.next();
      } else {
        read.result().send(ctx, CACHING);
      }
    });
  }

  /**
   * A page for a route of its own ({@code /c/<id>}, a board's): such an address names a page of the UI's, and what it
   * shows comes from the API. At 200 it is served as {@link #handle} serves the file, so a reload of a conversation is
   * 304; at another status (an address that can name nothing), whole.
   */
  void page(RoutingContext ctx, String name, int status) {
    if (status == 200) {
      withPage(ctx, name, page -> page.send(ctx, CACHING));
    } else {
      ctx.response().setStatusCode(status).putHeader(HttpHeaders.CACHE_CONTROL, CACHING);
      pageAsIs(ctx, name);
    }
  }

  /** A page whole, with the status and headers its route has set: a 404's, or one no cache may keep. */
  void pageAsIs(RoutingContext ctx, String name) {
    withPage(ctx, name, page -> ctx.response().putHeader(HttpHeaders.CONTENT_TYPE, page.mediaType()).end(page.body()));
  }

  private void withPage(RoutingContext ctx, String name, Consumer<HeldFile> send) {
    file(name).onComplete(read -> {
      if (read.failed() || read.result() == null) {
        ctx.fail(500, read.failed() ? read.cause() : new IllegalStateException("webroot/" + name + " is missing"));
      } else {
        send.accept(read.result());
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
