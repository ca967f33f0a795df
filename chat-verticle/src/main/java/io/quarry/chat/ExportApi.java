package io.quarry.chat;

import io.quarry.bus.Conversation;
import io.quarry.bus.DatasetClient;
import io.quarry.bus.Export;
import io.quarry.bus.Failure;
import io.quarry.bus.QuarryException;
import io.quarry.bus.QueryResult;
import io.quarry.bus.StorageClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.UUID;

/**
 * A stored result's whole data as a file: its SQL runs again on a worker, which writes every row with DuckDB, and
 * this node streams the file to the browser a chunk at a time, as fast as the browser takes it. Refused when the data
 * changed since the result; stopped, and the file deleted, when the browser goes away.
 */
final class ExportApi {

  static final String PATH = "/api/results/:rid/export";
  private static final long CHUNK_WAIT_MS = 30_000;

  private final Vertx vertx;
  private final DatasetClient datasets;
  private final StorageClient storage;
  private final ChatSettings.Exports limits;

  ExportApi(Vertx vertx, DatasetClient datasets, StorageClient storage, ChatSettings.Exports limits) {
    this.vertx = vertx;
    this.datasets = datasets;
    this.storage = storage;
    this.limits = limits;
  }

  void mount(Router router) {
    router.get(PATH).handler(this::export);
    Routes.allowOnly(router, PATH, HttpMethod.GET);
  }

  private void export(RoutingContext ctx) {
    String format = ctx.queryParams().get("format");
    if (format == null || !Export.FORMATS.contains(format)) {
      throw QuarryException.badRequest("Query parameter 'format' must be csv, parquet or json");
    }
    String userId = Auth.user(ctx).id();
    String stopKey = UUID.randomUUID().toString();
    ctx.response().closeHandler(v -> datasets.stopQueries(stopKey));
    storage.result(userId, ctx.pathParam("rid"))
        .compose(result -> storage.conversation(userId, result.conversationId())
            .compose(conversation -> datasets.export(userId, result.conversationId(), ExportOrder.sql(result, ctx.queryParams()),
                    new Export(format, limits.maxRows(), limits.maxBytes()), stopKey)
                .compose(written -> checked(result, written))
                .onSuccess(written -> new Download(ctx, Export.File.fromJson(written.export()), conversation)
                    .start())))
        .onFailure(e -> HttpErrors.respondQuery(ctx, e));
  }

  /** An export of another version of the data than the result read is not the result's: its file goes. */
  private Future<QueryResult> checked(QueryResult result, QueryResult written) {
    if (!Export.changed(result.sources(), written.sources())) {
      return Future.succeededFuture(written);
    }
    return done(Export.File.fromJson(written.export()).address())
        .transform(v -> Future.failedFuture(new QuarryException(Failure.CONFLICT, Export.DATA_CHANGED)));
  }

  /** Deletes the export's file; a worker that cannot be reached deletes it when it stays unread. */
  private Future<Void> done(String address) {
    return vertx.eventBus().request(address, Export.done()).<Void>mapEmpty().otherwiseEmpty();
  }

  /** A conversation still untitled gives its files no name of its own. */
  private static String named(Conversation conversation) {
    return ConversationApi.DEFAULT_TITLE.equals(conversation.title()) ? null : conversation.title();
  }

  /** One file on its way to the browser: the next chunk is asked for when the browser has taken the last. */
  private final class Download {
    final RoutingContext ctx;
    final HttpServerResponse response;
    final String address;
    final long bytes;
    long offset;
    /** The chunk after the one being written, already on its way: the worker reads while the browser takes. */
    Future<Buffer> ahead;

    Download(RoutingContext ctx, Export.File file, Conversation conversation) {
      this.ctx = ctx;
      this.response = ctx.response();
      this.address = file.address();
      this.bytes = file.bytes();
      response.putHeader("content-type", Export.contentType(file.format()))
          .putHeader("content-disposition", FileNames.attachment(named(conversation), file.format()))
          .putHeader("content-length", Long.toString(bytes))
          .putHeader("x-quarry-rows", Long.toString(file.rows()));
    }

    void start() {
      if (response.closed()) {
        done(address);
        return;
      }
      response.closeHandler(v -> done(address));
      next();
    }

    void next() {
      if (offset >= bytes) {
        // The file goes before the download ends, so a finished download leaves nothing behind.
        done(address).onComplete(v -> response.end());
        return;
      }
      Future<Buffer> chunk = ahead != null ? ahead : read(offset);
      ahead = null;
      chunk.onSuccess(this::write).onFailure(this::failed);
    }

    Future<Buffer> read(long at) {
      return vertx.eventBus().<Buffer>request(address, Export.chunkAt(at),
          new DeliveryOptions().setSendTimeout(CHUNK_WAIT_MS)).map(reply -> reply.body());
    }

    /** Once the file has begun, the browser can only be told by a download that breaks off. */
    void failed(Throwable e) {
      if (response.headWritten()) {
        response.reset();
      } else {
        HttpErrors.respond(ctx, e);
      }
    }

    void write(Buffer chunk) {
      if (response.closed()) {
        return;
      }
      if (chunk.length() == 0) {
        // The file is shorter than its worker said: a cut download is better than a file that looks whole.
        response.reset();
        return;
      }
      offset += chunk.length();
      if (offset < bytes) {
        ahead = read(offset);
      }
      response.write(chunk);
      if (response.writeQueueFull()) {
        response.drainHandler(v -> {
          response.drainHandler(null);
          next();
        });
      } else {
        next();
      }
    }
  }
}
