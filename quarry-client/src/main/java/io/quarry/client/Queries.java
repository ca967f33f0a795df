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
import io.vertx.core.file.OpenOptions;
import io.vertx.core.streams.WriteStream;
import java.nio.file.Path;

/** SQL over a conversation's datasets: a stored result of the first rows, or the whole result as a file. */
public final class Queries {

  private final Vertx vertx;
  private final Bus bus;

  /** @param vertx joined to the cluster ({@link QuarryBus#join}) */
  public Queries(Vertx vertx) {
    this.vertx = vertx;
    this.bus = new Bus(vertx);
  }

  /** One read-only statement; its result holds at most 1,000 rows ({@link QueryResult#rowValues()}). */
  public Future<QueryResult> run(String userId, String conversationId, String sql) {
    return ApiOps.QUERY_RUN.call(bus, new Query(userId, conversationId, sql));
  }

  /**
   * The whole result written by a worker in {@code format} (csv, parquet or json), with the versions of the files it
   * read ({@link Export.File#sources()}): read it with {@link #read}.
   */
  public Future<Export.File> export(String userId, String conversationId, String sql, String format) {
    return ApiOps.QUERY_EXPORT.call(bus, new ExportQuery(userId, conversationId, sql, format)).map(Export.File::of);
  }

  /**
   * An export's bytes written to {@code to} a chunk ({@link Export#CHUNK_BYTES}) at a time, the next asked for only once
   * {@code to} has room: however large the file, at most one chunk waits here. The file is deleted once read (or when
   * reading fails, or two minutes after it was written); {@code to} is not ended.
   */
  public Future<Void> read(Export.File file, WriteStream<Buffer> to) {
    return new ExportReader(bus.eventBus(), file, to).start();
  }

  /**
   * An export's bytes written to the file at {@code path} (made, or emptied first) as they come, as
   * {@link #read(Export.File, WriteStream)} writes them.
   */
  public Future<Void> read(Export.File file, Path path) {
    OpenOptions options = new OpenOptions().setWrite(true).setCreate(true).setTruncateExisting(true);
    return vertx.fileSystem().open(path.toString(), options)
        .compose(out -> read(file, out).eventually(out::close));
  }

  /**
   * An export's bytes, read chunk by chunk into one buffer: the whole file (up to {@code export.maxBytes}, 1 GB by
   * default) in memory, so for small exports only; {@link #read(Export.File, WriteStream)} streams. The file is deleted
   * once read (or two minutes after it was written).
   */
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
