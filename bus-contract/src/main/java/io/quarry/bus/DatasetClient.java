package io.quarry.bus;

import static io.quarry.bus.Addresses.*;

import io.quarry.bus.Failover.Policy;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.json.JsonObject;

/**
 * The dataset-verticle: adding a URL runs the validation pipeline (BAD_REQUEST with the seed's exact
 * message when a step fails), and SQL runs over a conversation's ready datasets.
 */
public final class DatasetClient {

  private final EventBus bus;
  private final Failover failover;
  private final QueryTimeouts timeouts;

  /**
   * @param timeouts how long a query may run; the bus request waits a little longer. Call from the verticle that
   *     uses it (see {@link Failover#Failover}).
   */
  public DatasetClient(Vertx vertx, QueryTimeouts timeouts) {
    this.bus = vertx.eventBus();
    this.failover = new Failover(vertx);
    this.timeouts = timeouts;
  }

  public Future<Dataset> add(String userId, String conversationId, String url) {
    return Bus.request(bus, DATASET_ADD, scope(userId, conversationId).put(Keys.URL, url), Deliveries.dataset())
        .map(Dataset::fromJson);
  }

  public Future<Dataset> rename(String userId, String conversationId, String datasetId, String name) {
    return failover.request(DATASET_RENAME, scope(userId, conversationId).put(Keys.DATASET_ID, datasetId)
        .put(Keys.NAME, name), Deliveries.storage(), Policy.IDEMPOTENT).map(Dataset::fromJson);
  }

  /** Re-runs pipeline steps 2–5 for a dataset already added. */
  public Future<Dataset> refresh(String userId, String conversationId, String datasetId) {
    return Bus.request(bus, DATASET_REFRESH, scope(userId, conversationId).put(Keys.DATASET_ID, datasetId),
        Deliveries.dataset()).map(Dataset::fromJson);
  }

  public Future<Dataset> remove(String userId, String conversationId, String datasetId) {
    return Bus.request(bus, DATASET_REMOVE, scope(userId, conversationId).put(Keys.DATASET_ID, datasetId),
        Deliveries.storage()).map(Dataset::fromJson);
  }

  /**
   * Asks the servers of the conversation's ready datasets (HEAD) whether their files changed since they were
   * recorded: a changed one takes its new version and its browsers hear {@code dataset_loaded}. Each dataset is asked
   * at most once per {@code dataset.versionCheckIntervalMs}. Answers {@code {checked, changed}}.
   */
  public Future<JsonObject> checkVersions(String userId, String conversationId) {
    return Bus.request(bus, DATASET_VERSIONS_CHECK, scope(userId, conversationId), Deliveries.dataset());
  }

  /**
   * Runs SQL over the conversation's ready datasets and stores the result (at most 1,000 rows). A query only reads,
   * so one whose dataset node leaves the cluster is sent again to another ({@link Failover}). Fails
   * with SQL, TIMEOUT, NETWORK, BAD_REQUEST (not a read query) or UNAVAILABLE (busy, no worker).
   */
  public Future<QueryResult> query(String userId, String conversationId, String sql) {
    return query(userId, conversationId, sql, "");
  }

  /** {@code stopKey}: what {@link QueryStops#publish} names to stop this query; empty for none. */
  public Future<QueryResult> query(String userId, String conversationId, String sql, String stopKey) {
    return failover.request(DATASET_QUERY_RUN, scope(userId, conversationId).put(Keys.SQL, sql)
        .put(Keys.STOP_KEY, stopKey), Deliveries.within(timeouts.datasetWaitMs()), Policy.NOT_ON_TIMEOUT)
        .map(QueryResult::fromJson);
  }

  /**
   * Writes the whole result of {@code sql} for download ({@link Export}): the reply's {@code export} says where a
   * worker serves it ({@code {address, rows, bytes, format}}), and its {@code sources} which versions it read. Fails
   * as a query does, and TOO_LARGE past the export's rows or bytes; {@code stopKey} stops it as it stops a query.
   */
  public Future<QueryResult> export(String userId, String conversationId, String sql, Export export, String stopKey) {
    return failover.request(DATASET_QUERY_RUN, scope(userId, conversationId).put(Keys.SQL, sql)
        .put(Keys.STOP_KEY, stopKey).put(Keys.EXPORT, export.toJson()), Deliveries.within(timeouts.datasetWaitMs()), Policy.NOT_ON_TIMEOUT)
        .map(QueryResult::fromJson);
  }

  /** Stops every query sent with this stop key, wherever it runs or waits (see {@link QueryStops}). */
  public void stopQueries(String stopKey) {
    QueryStops.publish(bus, stopKey);
  }

  private static JsonObject scope(String userId, String conversationId) {
    return new JsonObject().put(Keys.USER_ID, userId).put(Keys.CONVERSATION_ID, conversationId);
  }
}
