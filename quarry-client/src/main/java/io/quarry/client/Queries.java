package io.quarry.client;

import io.quarry.bus.ApiOps;
import io.quarry.bus.ApiOps.ExportQuery;
import io.quarry.bus.ApiOps.Query;
import io.quarry.bus.Bus;
import io.quarry.bus.Deliveries;
import io.quarry.bus.Export;
import io.quarry.bus.QueryResult;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.Message;

/** SQL over a conversation's datasets: a stored result of the first rows, or the whole result as a file. */
public final class Queries {

  private final Bus bus;

  /** @param vertx joined to the cluster ({@link QuarryBus#join}) */
  public Queries(Vertx vertx) {
    this.bus = new Bus(vertx);
  }

  /** One read-only statement; its result holds at most 1,000 rows ({@link QueryResult#rowValues()}). */
  public Future<QueryResult> run(String userId, String conversationId, String sql) {
    return ApiOps.QUERY_RUN.call(bus, new Query(userId, conversationId, sql));
  }

  /** The whole result written by a worker in {@code format} (csv, parquet or json): read it with {@link #read}. */
  public Future<Export.File> export(String userId, String conversationId, String sql, String format) {
    return ApiOps.QUERY_EXPORT.call(bus, new ExportQuery(userId, conversationId, sql, format))
        .map(result -> Export.File.fromJson(result.export()));
  }

  /** An export's bytes, read chunk by chunk; the file is deleted once read (or two minutes after it was written). */
  public Future<Buffer> read(Export.File file) {
    return readFrom(bus.eventBus(), file, Buffer.buffer((int) Math.min(file.bytes(), Integer.MAX_VALUE - 8)))
        .compose(all -> bus.eventBus().request(file.address(), Export.done(), Deliveries.storage()).map(all));
  }

  private static Future<Buffer> readFrom(EventBus bus, Export.File file, Buffer into) {
    if (into.length() >= file.bytes()) {
      return Future.succeededFuture(into);
    }
    return bus.<Buffer>request(file.address(), Export.chunkAt(into.length()), Deliveries.storage())
        .map(Message::body)
        .compose(chunk -> chunk.length() == 0 ? Future.succeededFuture(into)
            : readFrom(bus, file, into.appendBuffer(chunk)));
  }
}
