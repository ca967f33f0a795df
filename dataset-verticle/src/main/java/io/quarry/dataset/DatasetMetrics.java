package io.quarry.dataset;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.Timer;
import io.quarry.bus.Dataset;
import io.quarry.bus.Failure;
import io.quarry.bus.QueryResult;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import java.time.Duration;
import java.util.function.Function;

/**
 * The dataset role's meters (docs/metrics.md): datasets added by outcome — loaded, or the pipeline step that failed —
 * and queries by outcome, their latency as their caller waits (queueing included) and the rows they return.
 */
final class DatasetMetrics {

  private static final MeterRegistry REGISTRY = Metrics.globalRegistry;
  private static final DistributionSummary ROWS = DistributionSummary.builder("quarry.query.rows")
      .description("Rows a query returned (total_rows, before the 1,000 kept)").baseUnit("rows").register(REGISTRY);

  private DatasetMetrics() {
  }

  /** {@code handler}, its outcome counted as {@code quarry_datasets_added_total}. */
  static <Q> Function<Q, Future<Dataset>> adds(Function<Q, Future<Dataset>> handler) {
    return body -> call(handler, body).onComplete(DatasetMetrics::added);
  }

  /** {@code handler}, timed as {@code quarry_queries_seconds} by outcome, its rows counted. */
  static <Q> Function<Q, Future<QueryResult>> queries(Function<Q, Future<QueryResult>> handler) {
    return body -> {
      long started = System.nanoTime();
      return call(handler, body).onComplete(done -> queried(done, started));
    };
  }

  /** A handler that refuses a request at once (throws) has answered too. */
  private static <Q, R> Future<R> call(Function<Q, Future<R>> handler, Q request) {
    try {
      return handler.apply(request);
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
  }

  private static void added(AsyncResult<Dataset> done) {
    Counter.builder("quarry.datasets.added").description("Datasets added, by outcome (the pipeline step that failed)")
        .tag("outcome", done.succeeded() ? "loaded" : addFailure(done.cause())).register(REGISTRY).increment();
  }

  /** The step whose message the failure carries (the seed's exact texts), or its kind. */
  static String addFailure(Throwable cause) {
    String message = Failure.messageOf(cause);
    if (message.startsWith(DatasetCommands.INVALID_URL)) {
      return "invalid_url";
    } else if (message.startsWith(Pipeline.COULD_NOT_ACCESS)) {
      return "unreachable";
    } else if (message.startsWith(Pipeline.NOT_PARQUET)) {
      return "not_parquet";
    } else if (message.startsWith(Pipeline.NO_SCHEMA)) {
      return "no_schema";
    } else if (message.startsWith("This dataset is already loaded")) {
      return "duplicate";
    } else if (message.startsWith("Maximum ")) {
      return "limit";
    }
    return Failure.classify(cause) == Failure.TOO_LARGE ? "too_large" : "error";
  }

  private static void queried(AsyncResult<QueryResult> done, long started) {
    String outcome = done.succeeded() ? "ok" : Failure.classify(done.cause()).name().toLowerCase(java.util.Locale.ROOT);
    Timer.builder("quarry.queries").description("Queries as their callers wait for them, queueing included")
        .tag("outcome", outcome).publishPercentileHistogram().maximumExpectedValue(Duration.ofMinutes(5))
        .register(REGISTRY).record(Duration.ofNanos(System.nanoTime() - started));
    if (done.succeeded()) {
      ROWS.record(done.result().totalRows());
    }
  }
}
