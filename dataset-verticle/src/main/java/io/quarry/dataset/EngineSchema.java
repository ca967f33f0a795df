package io.quarry.dataset;

import io.quarry.bus.DataFormat;
import io.quarry.bus.Failure;
import io.quarry.bus.FileEnd;
import io.quarry.bus.QuarryException;
import io.quarry.bus.QueryRequest;
import io.quarry.bus.QueryResult;
import io.quarry.bus.QueryTimeouts;
import io.quarry.bus.Sizes;
import io.quarry.bus.Source;
import io.quarry.bus.WorkerClient;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.util.List;
import java.util.Map;

/**
 * The schema a user and the model see is the engine's own: a worker opens the file as every query will (DuckDB reads
 * the footer and no data) and says each column's type. A file DuckDB cannot open is refused here, at add, rather than
 * called ready and failing its first query.
 */
final class EngineSchema {

  /** The name the file is bound to for the check; it appears in no message the user sees. */
  private static final String TABLE = "dataset";
  private static final String COLUMNS = "SELECT column_name, column_type FROM (DESCRIBE " + TABLE + ")";

  private final WorkerClient worker;

  EngineSchema(WorkerClient worker) {
    this.worker = worker;
  }

  /**
   * Columns as {@code [{name, type, friendly_type}]}, within {@code limitMs} of the worker's time: what is left of the
   * pipeline's step, whose whole limit, {@code stepMs}, is the one a timeout names. The worker reads them from the
   * footer alone: it fetches no column for them, and opens no database of the query's ({@link QueryRequest#columnsOf}).
   */
  Future<JsonArray> describe(URI url, Source version, FileEnd end, String conversationId, long limitMs, long stepMs) {
    return columns(url, version, end, DataFormat.PARQUET, conversationId, limitMs).map(Described::columns)
        .recover(e -> Future.failedFuture(refusal(e, Pipeline.NO_SCHEMA, stepMs)));
  }

  /** A text file's columns and rows. */
  record Read(long rows, JsonArray columns) {
  }

  /**
   * A CSV or JSON file as its reader reads it: the worker fetches it whole (this first look is its first query) and
   * reads every row, so a row the reader refuses refuses the file here, with the line DuckDB names.
   */
  Future<Read> read(URI url, Source version, DataFormat format, String conversationId, long limitMs) {
    return columns(url, version, null, format, conversationId, limitMs)
        .compose(described -> {
          long leftMs = described.leftOf(limitMs);
          return worker.run(request("SELECT count(*) FROM " + TABLE, url, version, null, format, conversationId,
                  leftMs, ""), QueryTimeouts.workerWaitMs(leftMs))
              .map(counted -> new Read(counted.rowValues().getJsonArray(0).getLong(0), described.columns()));
        })
        .recover(e -> Future.failedFuture(refusal(e, Pipeline.unreadable(format), limitMs)));
  }

  /** The columns, and how long the worker spent finding them: what the next look at the file may spend is the rest. */
  private record Described(JsonArray columns, long workerMs) {

    long leftOf(long limitMs) {
      return Math.max(1, limitMs - workerMs);
    }
  }

  /**
   * {@code version}: what the pipeline just read, so that a worker's copy of an older one is not described; {@code
   * end}: the file's last bytes as the pipeline read them, which a worker holding no copy starts from (null: none);
   * {@code conversationId}: whose queries will read the file, so that the worker process that runs them is the one
   * whose copy begins here (empty: none). The limit is the worker's time on the file, which its pool counts from when
   * a worker can start it (a first worker still starting is no fault of the file's): this side waits a grace longer,
   * to hear the pool's own answer.
   */
  private Future<Described> columns(URI url, Source version, FileEnd end, DataFormat format, String conversationId,
      long limitMs) {
    // The statement reads the table and none of its columns: the worker makes its copy current by the footer alone.
    QueryRequest request = request(COLUMNS, url, version, end, format, conversationId, limitMs, TABLE);
    return worker.run(request, QueryTimeouts.workerWaitMs(limitMs)).compose(result -> {
      Described described = new Described(add(new JsonArray(), result), result.executionTimeMs());
      // A worker of an earlier version (a cluster in a rolling upgrade) runs the statement instead, and cuts its rows.
      return result.truncated() ? pages(url, version, end, format, conversationId, described, limitMs)
          : Future.succeededFuture(described);
    });
  }

  /** The rest of the columns, a page of {@link QueryResult#MAX_ROWS} at a time. */
  private Future<Described> pages(URI url, Source version, FileEnd end, DataFormat format, String conversationId,
      Described described, long limitMs) {
    long leftMs = described.leftOf(limitMs);
    QueryRequest request = request(COLUMNS + " LIMIT " + QueryResult.MAX_ROWS + " OFFSET " + described.columns().size(),
        url, version, end, format, conversationId, leftMs, "");
    return worker.run(request, QueryTimeouts.workerWaitMs(leftMs)).compose(result -> {
      Described more = new Described(add(described.columns(), result), described.workerMs() + result.executionTimeMs());
      return result.totalRows() < QueryResult.MAX_ROWS ? Future.succeededFuture(more)
          : pages(url, version, end, format, conversationId, more, limitMs);
    });
  }

  private static JsonArray add(JsonArray described, QueryResult result) {
    for (Object row : result.rowValues()) {
      String type = ((JsonArray) row).getString(1);
      described.add(new JsonObject().put("name", ((JsonArray) row).getString(0)).put("type", type)
          .put("friendly_type", FriendlyTypes.of(type)));
    }
    return described;
  }

  private static QueryRequest request(String sql, URI url, Source version, FileEnd end, DataFormat format,
      String conversationId, long leftMs, String columnsOf) {
    return new QueryRequest(sql, Map.of(TABLE, url.toString()), leftMs, "", conversationId, "", null, List.of(version),
        end == null ? List.of() : List.of(end),
        format == DataFormat.PARQUET ? Map.of() : Map.of(url.toString(), format), "", columnsOf);
  }

  /**
   * DuckDB refusing the file is the pipeline's step 4 failing, in its words, as is the worker's limit passing while it
   * read the file (the pipeline's steps say "No answer within"); a worker that cannot be had (busy, none, or no answer
   * from its pool at all) is said as it is.
   */
  private static Throwable refusal(Throwable e, String message, long limitMs) {
    Failure failure = Failure.classify(e);
    if (failure == Failure.TIMEOUT && e instanceof QuarryException) {
      return new QuarryException(Failure.BAD_REQUEST, message, "No answer within " + Sizes.seconds(limitMs));
    }
    if (failure == Failure.UNAVAILABLE || failure == Failure.TIMEOUT) {
      return e instanceof QuarryException ? e : new QuarryException(Failure.UNAVAILABLE, WorkerClient.NO_WORKER);
    }
    String details = Failure.detailsOf(e);
    return new QuarryException(Failure.BAD_REQUEST, message,
        details == null || details.isBlank() ? Failure.messageOf(e) : details);
  }
}
