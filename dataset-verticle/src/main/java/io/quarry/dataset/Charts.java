package io.quarry.dataset;

import io.quarry.bus.ChartData;
import io.quarry.bus.ChartSpec;
import io.quarry.bus.DatasetOps.ChartRequest;
import io.quarry.bus.Export;
import io.quarry.bus.Failure;
import io.quarry.bus.QuarryException;
import io.quarry.bus.QueryResult;
import io.quarry.bus.StorageClient;
import io.vertx.core.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Charts of stored results, computed from every row: the result's SQL runs again on a worker inside the chart's own
 * ({@link ChartQuery}), over the data the result read — a file that changed since is refused, as an export is.
 */
final class Charts {

  static final String COULD_NOT = "The chart could not be computed";
  private static final Logger log = LoggerFactory.getLogger(Charts.class);

  private final StorageClient storage;
  private final QueryRunner queries;

  Charts(StorageClient storage, QueryRunner queries) {
    this.storage = storage;
    this.queries = queries;
  }

  Future<ChartData> chart(ChartRequest request) {
    return storage.result(request.userId(), request.resultId()).compose(result -> {
      ChartQuery query;
      try {
        query = new ChartQuery(ChartSpec.validate(request.spec(), result), result);
      } catch (IllegalArgumentException e) {
        return Future.failedFuture(QuarryException.badRequest(e.getMessage()));
      }
      return queries.unstored(request.userId(), result.conversationId(), query.sql(), request.stopKey())
          .compose(drawn -> sameData(result, drawn) ? Future.succeededFuture(query.data(drawn))
              : Future.failedFuture(new QuarryException(Failure.CONFLICT, ChartSpec.DATA_CHANGED)))
          .recover(e -> Failure.classify(e) == Failure.SQL ? ownError(request, result, e) : Future.failedFuture(e));
    });
  }

  /**
   * The engine's words about the chart's statement name the chart's own helper columns, which the user never wrote:
   * the result's SQL, run alone, says what went wrong in the user's terms (a table removed since, say).
   */
  private Future<ChartData> ownError(ChartRequest request, QueryResult result, Throwable chartError) {
    return queries.unstored(request.userId(), result.conversationId(), result.sql(), request.stopKey())
        .transform(alone -> {
          if (alone.failed() && Failure.classify(alone.cause()) == Failure.SQL) {
            return Future.failedFuture(new QuarryException(Failure.SQL, COULD_NOT + ": "
                + Failure.messageOf(alone.cause())));
          }
          log.warn("Chart of result {} failed where its SQL did not: {}", result.id(), Failure.messageOf(chartError));
          return Future.failedFuture(new QuarryException(Failure.SQL, COULD_NOT + " from this result"));
        });
  }

  private static boolean sameData(QueryResult result, QueryResult drawn) {
    return !Export.changed(result.sourceList(), drawn.sourceList());
  }
}
