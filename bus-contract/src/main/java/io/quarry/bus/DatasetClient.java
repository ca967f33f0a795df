package io.quarry.bus;

import static io.quarry.bus.DatasetOps.*;

import io.quarry.bus.DatasetOps.VersionsChecked;
import io.quarry.bus.Scopes.ConversationRef;
import io.quarry.bus.Scopes.DatasetRef;
import io.quarry.bus.StorageOps.RenameDataset;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.core.Vertx;

/** The dataset-verticle's operations ({@link DatasetOps}) as methods, for callers that hold one. */
public final class DatasetClient {

  private final Bus bus;
  private final QueryTimeouts timeouts;

  /**
   * @param timeouts how long a query may run; the bus request waits a little longer. Call from the verticle that
   *     uses it (see {@link Bus}).
   */
  public DatasetClient(Vertx vertx, QueryTimeouts timeouts) {
    this.bus = new Bus(vertx);
    this.timeouts = timeouts;
  }

  public Future<Dataset> add(String userId, String conversationId, String url) {
    return ADD.call(bus, new AddDataset(userId, conversationId, url));
  }

  public Future<Dataset> rename(String userId, String conversationId, String datasetId, String name) {
    return RENAME.call(bus, new RenameDataset(userId, conversationId, datasetId, name));
  }

  /** Re-runs pipeline steps 2–5 for a dataset already added. */
  public Future<Dataset> refresh(String userId, String conversationId, String datasetId) {
    return REFRESH.call(bus, new DatasetRef(userId, conversationId, datasetId));
  }

  public Future<Dataset> remove(String userId, String conversationId, String datasetId) {
    return REMOVE.call(bus, new DatasetRef(userId, conversationId, datasetId));
  }

  /** See {@link DatasetOps#VERSIONS_CHECK}. */
  public Future<VersionsChecked> checkVersions(String userId, String conversationId) {
    return VERSIONS_CHECK.call(bus, new ConversationRef(userId, conversationId));
  }

  /** See {@link DatasetOps#PROFILE}; {@code column} null for none, {@code stopKey} stops its queries. */
  public Future<Profile> profile(String userId, String conversationId, String datasetId, String column,
      String stopKey) {
    return PROFILE.call(bus, new DatasetOps.ProfileRequest(userId, conversationId, datasetId, column, stopKey),
        timeouts.datasetWaitMs());
  }

  /** See {@link DatasetOps#QUERY_RUN}. */
  public Future<QueryResult> query(String userId, String conversationId, String sql) {
    return query(userId, conversationId, sql, "");
  }

  /** {@code stopKey}: what {@link QueryStops#publish} names to stop this query; empty for none. */
  public Future<QueryResult> query(String userId, String conversationId, String sql, String stopKey) {
    return QUERY_RUN.call(bus, new RunQuery(userId, conversationId, sql, stopKey, null), timeouts.datasetWaitMs());
  }

  /**
   * Writes the whole result of {@code sql} for download ({@link Export}): the reply's {@code export} says where a
   * worker serves it ({@code {address, rows, bytes, format}}), and its {@code sources} which versions it read. Fails
   * as a query does, and TOO_LARGE past the export's rows or bytes; {@code stopKey} stops it as it stops a query.
   */
  public Future<QueryResult> export(String userId, String conversationId, String sql, Export export, String stopKey) {
    return QUERY_RUN.call(bus, new RunQuery(userId, conversationId, sql, stopKey, export), timeouts.datasetWaitMs());
  }

  /** See {@link DatasetOps#CHART}; {@code stopKey} stops its query as it stops any. */
  public Future<ChartData> chart(String userId, String resultId, JsonObject spec, String stopKey) {
    return CHART.call(bus, new DatasetOps.ChartRequest(userId, resultId, spec, stopKey), timeouts.datasetWaitMs());
  }

  /** Stops every query sent with this stop key, wherever it runs or waits (see {@link QueryStops}). */
  public void stopQueries(String stopKey) {
    QueryStops.publish(bus.eventBus(), stopKey);
  }
}
