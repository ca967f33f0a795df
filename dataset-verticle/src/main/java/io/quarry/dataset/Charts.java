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

/**
 * Charts of stored results, computed from every row: the result's SQL runs again on a worker inside the chart's own
 * ({@link ChartQuery}), over the data the result read — a file that changed since is refused, as an export is.
 */
final class Charts {

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
              : Future.failedFuture(new QuarryException(Failure.CONFLICT, ChartSpec.DATA_CHANGED)));
    });
  }

  private static boolean sameData(QueryResult result, QueryResult drawn) {
    return !Export.changed(result.sourceList(), drawn.sourceList());
  }
}
