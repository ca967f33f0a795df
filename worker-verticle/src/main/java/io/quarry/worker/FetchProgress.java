package io.quarry.worker;

import io.quarry.bus.ChatEvents;
import io.quarry.bus.QueryRequest;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Map;

/**
 * Tells the browsers of whom a query runs for how its data is coming, so that a big file's first query is not a
 * silent wait: while its files download, every {@code worker.progressIntervalMs}, a {@code query_progress} event
 * with the bytes received and expected, per table. A query for nobody in particular (no user or conversation)
 * publishes nothing. Used on the worker verticle's event loop, like the cache it reads.
 */
final class FetchProgress {

  private final Vertx vertx;
  private final ParquetCache cache;
  private final long intervalMs;

  FetchProgress(Vertx vertx, ParquetCache cache, long intervalMs) {
    this.vertx = vertx;
    this.cache = cache;
    this.intervalMs = intervalMs;
  }

  /** Publishes while {@code fetching} runs. */
  void follow(QueryRequest request, Map<String, String> tables, Future<?> fetching) {
    if (request.userId().isBlank() || request.conversationId().isBlank() || fetching.isComplete()) {
      return;
    }
    long timer = vertx.setPeriodic(intervalMs, id -> publish(request, tables));
    fetching.onComplete(done -> vertx.cancelTimer(timer));
  }

  private void publish(QueryRequest request, Map<String, String> tables) {
    Map<String, Downloads.Download> downloads = cache.downloads(tables);
    if (downloads.isEmpty()) {
      return;
    }
    JsonArray perTable = new JsonArray();
    downloads.forEach((table, download) -> perTable.add(new JsonObject().put("table", table)
        .put("bytes_done", download.received).put("bytes_total", download.expected < 0 ? null : download.expected)));
    ChatEvents.publish(vertx.eventBus(), request.userId(), ChatEvents.queryProgress(request.conversationId(), perTable));
  }
}
