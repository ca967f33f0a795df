package io.quarry.dataset;

import io.quarry.bus.Failure;
import io.quarry.bus.QuarryException;
import io.quarry.bus.QueryRequest;
import io.quarry.bus.WorkerClient;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.util.Map;

/**
 * The schema a user and the model see is the engine's own: a worker opens the file as every query will (DuckDB reads
 * the footer and no data) and says each column's type. A file DuckDB cannot open is refused here, at add, rather than
 * called ready and failing its first query.
 */
final class EngineSchema {

  /** The name the file is bound to for the check; it appears in no message the user sees. */
  private static final String TABLE = "dataset";

  private final WorkerClient worker;

  EngineSchema(WorkerClient worker) {
    this.worker = worker;
  }

  /** Columns as {@code [{name, type, friendly_type}]}, within {@code timeoutMs}. */
  Future<JsonArray> describe(URI url, long timeoutMs) {
    QueryRequest request = new QueryRequest("SELECT * FROM " + TABLE + " LIMIT 0", Map.of(TABLE, url.toString()),
        timeoutMs);
    return worker.run(request, timeoutMs).map(result -> withFriendlyTypes(result.columns()))
        .recover(e -> Future.failedFuture(refusal(e)));
  }

  private static JsonArray withFriendlyTypes(JsonArray columns) {
    JsonArray described = new JsonArray();
    for (Object column : columns) {
      String type = ((JsonObject) column).getString("type");
      described.add(((JsonObject) column).copy().put("friendly_type", FriendlyTypes.of(type)));
    }
    return described;
  }

  /**
   * DuckDB refusing the file is the pipeline's step 4 failing, in its words; a worker that cannot be had (busy, none,
   * timed out) is said as it is.
   */
  private static Throwable refusal(Throwable e) {
    Failure failure = Failure.classify(e);
    if (failure == Failure.UNAVAILABLE || failure == Failure.TIMEOUT) {
      return e instanceof QuarryException ? e : new QuarryException(Failure.UNAVAILABLE, WorkerClient.NO_WORKER);
    }
    String details = Failure.detailsOf(e);
    return new QuarryException(Failure.BAD_REQUEST, Pipeline.NO_SCHEMA,
        details == null || details.isBlank() ? Failure.messageOf(e) : details);
  }
}
