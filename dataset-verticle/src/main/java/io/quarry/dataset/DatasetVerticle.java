package io.quarry.dataset;

import static io.quarry.bus.Addresses.*;

import io.quarry.bus.Bus;
import io.quarry.bus.StorageClient;
import io.quarry.bus.WorkerClient;
import io.quarry.bus.net.AddressPolicy;
import io.quarry.bus.net.OutboundHttp;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.json.JsonObject;

/**
 * Datasets by URL: the seed's validation pipeline, footer-only schemas, naming, limits, rename, refresh,
 * removal, and SQL over a conversation's datasets (run by a worker, stored by storage).
 */
public class DatasetVerticle extends VerticleBase {

  private OutboundHttp http;

  @Override
  public Future<?> start() {
    JsonObject c = config();
    EventBus bus = vertx.eventBus();
    StorageClient storage = new StorageClient(bus);
    http = new OutboundHttp(vertx, AddressPolicy.of(c.getBoolean("allowPrivateNetworks", false),
        c.getString("allowedAddresses", ""), c.getString("trustedUrlPrefixes", "")), c.getInteger("headTimeoutMs", 10_000));
    DatasetCommands commands = new DatasetCommands(bus, storage, new Pipeline(vertx, http, settings(c)),
        c.getInteger("maxDatasets", 5));
    long queryTimeoutMs = c.getLong("queryTimeoutMs", 60_000L);
    QueryRunner queries = new QueryRunner(bus, storage, new WorkerClient(bus), queryTimeoutMs,
        workerWait(c, queryTimeoutMs), c.getInteger("maxSqlChars", 100_000),
        new UserLanes(c.getInteger("maxQueriesPerUser", 4), c.getInteger("maxWaitingQueriesPerUser", 32)));
    return Future.all(
        Bus.serve(bus, DATASET_ADD, commands::add).completion(),
        Bus.serve(bus, DATASET_REFRESH, commands::refresh).completion(),
        Bus.serve(bus, DATASET_RENAME, commands::rename).completion(),
        Bus.serve(bus, DATASET_REMOVE, commands::remove).completion(),
        Bus.serve(bus, DATASET_QUERY_RUN, queries::run).completion());
  }

  /** How long a worker may take before the query goes to another one: its timeout plus 10 s unless set. */
  private static long workerWait(JsonObject c, long queryTimeoutMs) {
    long configured = c.getLong("workerTimeoutMs", 0L);
    return configured > 0 ? configured : queryTimeoutMs + 10_000L;
  }

  private static Pipeline.Settings settings(JsonObject c) {
    return new Pipeline.Settings(
        c.getLong("headTimeoutMs", 10_000L),
        c.getLong("magicTimeoutMs", 10_000L),
        c.getLong("schemaTimeoutMs", 30_000L),
        c.getLong("maxFileSizeBytes", 2L << 30),
        c.getLong("rangelessMaxBytes", 64L << 20),
        c.getInteger("maxFooterBytes", 64 << 20));
  }

  @Override
  public Future<?> stop() {
    return http == null ? Future.succeededFuture() : http.close();
  }
}
