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
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.UUID;

/**
 * A stored result's whole data as a file: its SQL runs again on a worker, which writes every row with DuckDB, and
 * this node streams the file to the browser ({@link Download}). Refused when the data changed since the result, and
 * while its user has {@code export.maxConcurrentPerUser} downloads in progress; stopped, and the file deleted, when
 * the browser goes away or takes it too slowly.
 */
final class ExportApi {

  static final String PATH = "/api/results/:rid/export";

  private final Vertx vertx;
  private final DatasetClient datasets;
  private final StorageClient storage;
  private final ChatSettings.Exports limits;
  private final Downloads downloads;

  ExportApi(Vertx vertx, DatasetClient datasets, StorageClient storage, ChatSettings.Exports limits) {
    this.vertx = vertx;
    this.datasets = datasets;
    this.storage = storage;
    this.limits = limits;
    this.downloads = new Downloads(limits.maxConcurrentPerUser());
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
    Runnable slot = downloads.take(userId);
    if (slot == null) {
      ctx.response().putHeader("Retry-After", Download.retryAfter(limits));
      HttpErrors.send(ctx, 429, Export.tooManyDownloads(limits.maxConcurrentPerUser()), null);
      return;
    }
    String stopKey = UUID.randomUUID().toString();
    Download download = new Download(vertx, ctx, limits, slot, () -> datasets.stopQueries(stopKey));
    storage.result(userId, ctx.pathParam("rid"))
        .compose(result -> storage.conversation(userId, result.conversationId())
            .compose(conversation -> datasets.export(userId, result.conversationId(), ExportOrder.sql(result, ctx.queryParams()),
                    new Export(format, limits.maxRows(), limits.maxBytes()), stopKey)
                .compose(written -> checked(result, written))
                .onSuccess(written -> download.start(Export.File.fromJson(written.export()), named(conversation)))))
        .onFailure(download::refused);
  }

  /** An export of another version of the data than the result read is not the result's: its file goes. */
  private Future<QueryResult> checked(QueryResult result, QueryResult written) {
    if (!Export.changed(result.sourceList(), written.sourceList())) {
      return Future.succeededFuture(written);
    }
    return Download.delete(vertx, Export.File.fromJson(written.export()).address())
        .transform(v -> Future.failedFuture(new QuarryException(Failure.CONFLICT, Export.DATA_CHANGED)));
  }

  /** A conversation still untitled gives its files no name of its own. */
  private static String named(Conversation conversation) {
    return ConversationApi.DEFAULT_TITLE.equals(conversation.title()) ? null : conversation.title();
  }
}
