package io.quarry.chat;

import io.quarry.bus.Dataset;
import io.quarry.bus.DatasetClient;
import io.quarry.bus.PrivateFiles;
import io.quarry.bus.QuarryException;
import io.quarry.bus.Sizes;
import io.quarry.bus.StorageClient;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.file.AsyncFile;
import io.vertx.core.file.OpenOptions;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.FileSystemAccess;
import io.vertx.ext.web.handler.StaticHandler;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * {@code POST /api/conversations/:id/datasets/upload?name=…}: a file from the user's disk, its bytes the request's
 * body, streamed to disk (never whole in memory) and added as a dataset like a URL — the same five-dataset limit,
 * names and pipeline — at the URL this node serves it at ({@link Uploads}). Past {@code dataset.uploadMaxBytes}, or
 * past what the user's uploads may hold ({@code dataset.userUploadBytes}), it is 413 and nothing is kept; a file the
 * pipeline refuses is deleted with the refusal.
 */
final class UploadApi {

  static final Pattern PATH = Pattern.compile("/api/conversations/[^/]+/datasets/upload");
  static final int MAX_NAME = 255;

  private final Uploads uploads;
  private final DatasetClient datasets;
  private final StorageClient storage;

  UploadApi(Uploads uploads, DatasetClient datasets, StorageClient storage) {
    this.uploads = uploads;
    this.datasets = datasets;
    this.storage = storage;
  }

  /** Whether a request is an upload, whose body is a file: no JSON check, no body buffered. */
  static boolean isUpload(RoutingContext ctx) {
    return ctx.request().method() == HttpMethod.POST && PATH.matcher(ctx.normalizedPath()).matches();
  }

  void mount(Router router) {
    router.post("/api/conversations/:id/datasets/upload").handler(this::upload);
    Routes.allowOnly(router, "/api/conversations/:id/datasets/upload", HttpMethod.POST);
    StaticHandler files = StaticHandler.create(FileSystemAccess.ROOT, uploads.settings().dir().toString())
        .setCachingEnabled(false).setDirectoryListing(false).setIncludeHidden(false);
    // Not an API route (the document lists none of these): a worker reads the file as it reads any URL.
    router.route(Uploads.PREFIX + "*").handler(this::signed).handler(files);
  }

  /** A file is served to whoever holds its signed URL (a worker reading its dataset), to nobody else. */
  private void signed(RoutingContext ctx) {
    HttpMethod method = ctx.request().method();
    if (method != HttpMethod.GET && method != HttpMethod.HEAD) {
      ctx.response().putHeader("Allow", "GET, HEAD");
      HttpErrors.send(ctx, 405, "Method not allowed", null);
      return;
    }
    if (!uploads.signed(ctx.request().path(), ctx.request().getParam("sig"))) {
      HttpErrors.send(ctx, 404, "Not found", null);
      return;
    }
    ctx.next();
  }

  private void upload(RoutingContext ctx) {
    String userId = Auth.user(ctx).id();
    String conversationId = ctx.pathParam("id");
    String name = name(ctx.request().getParam("name"));
    long declared = declaredLength(ctx.request());
    long maxBytes = uploads.settings().maxBytes();
    if (declared > maxBytes) {
      tooLarge(ctx, fileTooLarge(declared, maxBytes, true));
      return;
    }
    if (!Uploads.validId(conversationId)) {
      throw QuarryException.notFound("Conversation not found");
    }
    roomFor(userId, conversationId, Math.max(declared, 0)).onComplete(room -> {
      if (room.failed()) {
        refuse(ctx, room.cause());
        return;
      }
      Path upload = uploads.begin(userId, conversationId);
      receive(ctx, upload.resolve(name), room.result())
          .compose(file -> datasets.add(userId, conversationId, uploads.url(file)))
          .onComplete(added -> {
            uploads.settled(upload);
            if (added.succeeded()) {
              Replies.json(ctx, 201, added.result().toJson());
            } else {
              uploads.delete(upload).onComplete(deleted -> refuse(ctx, added.cause()));
            }
          });
    });
  }

  /** What the user's uploads may still take on this node; fails when the conversation is full or not theirs. */
  private Future<Long> roomFor(String userId, String conversationId, long declared) {
    int max = uploads.settings().maxDatasets();
    return storage.datasets(userId, conversationId)
        .compose(present -> present.stream().filter(d -> !d.neverLoaded()).count() >= max
            ? Future.failedFuture(QuarryException.badRequest("Maximum " + max + " datasets reached"))
            : uploads.held(userId))
        .compose(held -> {
          long room = uploads.settings().userBytes() - held;
          return declared > room ? Future.failedFuture(new TooLarge(userTooLarge(held + declared)))
              : Future.succeededFuture(room);
        });
  }

  /**
   * The body into {@code file} (0600, in new folders 0700), at most the file limit and {@code room}: past either, the
   * request fails with 413 and the part written is deleted.
   */
  private Future<Path> receive(RoutingContext ctx, Path file, long room) {
    Path part = file.resolveSibling(file.getFileName() + ".part");
    var fs = ctx.vertx().fileSystem();
    return ctx.vertx().executeBlocking(() -> PrivateFiles.directory(file.getParent()), false)
        .compose(dir -> fs.open(part.toString(), new OpenOptions().setWrite(true).setCreateNew(true)
            .setPerms(PrivateFiles.FILE)))
        .compose(out -> stream(ctx.request(), out, room).eventually(out::close))
        .compose(bytes -> fs.move(part.toString(), file.toString()))
        .map(file)
        .onFailure(e -> fs.delete(part.toString()).otherwiseEmpty());
  }

  private Future<Long> stream(HttpServerRequest request, AsyncFile out, long room) {
    Promise<Long> done = Promise.promise();
    long maxBytes = uploads.settings().maxBytes();
    long[] received = {0};
    request.handler(chunk -> {
      if (done.future().isComplete()) {
        return;
      }
      received[0] += chunk.length();
      if (received[0] > maxBytes || received[0] > room) {
        done.tryFail(new TooLarge(received[0] > maxBytes ? fileTooLarge(received[0], maxBytes, false)
            : userTooLarge(uploads.settings().userBytes() - room + received[0])));
        return;
      }
      out.write(chunk).onFailure(done::tryFail);
      if (out.writeQueueFull()) {
        request.pause();
        out.drainHandler(v -> request.resume());
      }
    });
    request.exceptionHandler(done::tryFail);
    request.endHandler(v -> out.flush().onComplete(flushed -> {
      if (flushed.succeeded()) {
        done.tryComplete(received[0]);
      } else {
        done.tryFail(flushed.cause());
      }
    }));
    request.resume();
    return done.future();
  }

  /** {@code declared}: the length the request gave; else the upload was stopped as it passed the limit. */
  private static String fileTooLarge(long bytes, long max, boolean declared) {
    return "The file is too large to upload (" + (declared ? size(bytes) : "more than " + size(max))
        + "); the maximum is " + size(max);
  }

  private String userTooLarge(long total) {
    return "Your uploads would hold " + size(total) + " on this server; each account may keep "
        + size(uploads.settings().userBytes()) + ": remove a dataset you uploaded to make room";
  }

  /** Exact below a megabyte, where rounding would make a file one byte too large look as large as the limit. */
  private static String size(long bytes) {
    return bytes < 1L << 20 ? String.format(java.util.Locale.ROOT, "%,d bytes", bytes) : Sizes.human(bytes);
  }

  /** Past a limit: said at once, and the connection closed rather than the rest of the body read. */
  private static final class TooLarge extends RuntimeException {
    TooLarge(String message) {
      super(message, null, false, false);
    }
  }

  private static void tooLarge(RoutingContext ctx, String message) {
    ctx.response().putHeader(HttpHeaders.CONNECTION, "close");
    HttpErrors.send(ctx, 413, message, null);
  }

  private static void refuse(RoutingContext ctx, Throwable e) {
    if (e instanceof TooLarge) {
      tooLarge(ctx, e.getMessage());
    } else {
      HttpErrors.respond(ctx, e);
    }
  }

  /** The file's own name, as its user knows it: no folders, no control characters. */
  private static String name(String given) {
    String name = given == null ? "" : given.replace('\\', '/');
    name = name.substring(name.lastIndexOf('/') + 1).strip();
    if (name.isEmpty() || name.equals(".") || name.equals("..") || name.startsWith(".")) {
      throw QuarryException.badRequest("Query parameter 'name' must be the file's name, e.g. ?name=sales.csv");
    }
    if (name.length() > MAX_NAME || name.chars().anyMatch(Character::isISOControl)) {
      throw QuarryException.badRequest("Query parameter 'name' must be at most " + MAX_NAME
          + " characters, without control characters");
    }
    return name;
  }

  /** The body's declared length, or -1 when it is chunked. */
  private static long declaredLength(HttpServerRequest request) {
    String length = request.getHeader(HttpHeaders.CONTENT_LENGTH);
    try {
      return length == null ? -1 : Long.parseLong(length.strip());
    } catch (NumberFormatException e) {
      throw QuarryException.badRequest("Content-Length is not a number");
    }
  }
}
