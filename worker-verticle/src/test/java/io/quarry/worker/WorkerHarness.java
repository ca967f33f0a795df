package io.quarry.worker;

import io.quarry.bus.NodeInfo;
import io.quarry.bus.QueryRequest;
import io.quarry.bus.QueryResult;
import io.quarry.bus.WorkerClient;
import io.quarry.testing.Failures;
import io.quarry.worker.pool.WorkerPool;
import io.quarry.worker.pool.WorkerPoolSettings;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** A worker deployed as a worker-only node runs it (its pool of one owns worker.query.run), and a client for it. */
final class WorkerHarness {

  private final Vertx vertx;
  private final Path dir;
  private String pool;
  final WorkerClient client;

  WorkerHarness(Vertx vertx, Path dir) {
    this.vertx = vertx;
    this.dir = dir;
    this.client = new WorkerClient(vertx);
  }

  /** (Re)deploys the worker with these {@code worker} settings over the tests' defaults; its cache starts empty. */
  WorkerHarness deploy(JsonObject overrides, long queryTimeoutMs) {
    return deploy(overrides, queryTimeoutMs, new JsonObject());
  }

  /** {@code poolSettings}: the {@code localWorkers} section the pool reads (e.g. its queue). */
  WorkerHarness deploy(JsonObject overrides, long queryTimeoutMs, JsonObject poolSettings) {
    undeploy();
    // These tests are about what the cache asks its server at each use: no freshness window unless one says so.
    JsonObject config = new JsonObject().put("dataDir", dir.resolve("data").toString()).put("allowPrivateNetworks", true)
        .put("threads", 2).put("memoryLimit", "512MB").put("freshForMs", 0).mergeIn(overrides);
    JsonObject node = new JsonObject().put("worker", config).put("localWorkers", poolSettings)
        .put("query", new JsonObject().put("timeoutMs", queryTimeoutMs));
    pool = vertx.deployVerticle(WorkerPool.inProcess(WorkerPoolSettings.inProcess(node,
        new NodeInfo("test-node", "dev", List.of())))).await();
    return this;
  }

  void undeploy() {
    if (pool != null) {
      vertx.undeploy(pool).await();
      pool = null;
    }
  }

  Future<QueryResult> start(String sql, Map<String, String> tables) {
    return client.run(new QueryRequest(sql, tables, 60_000));
  }

  QueryResult run(String sql, Map<String, String> tables) {
    return start(sql, tables).await();
  }

  ReplyException failure(String sql, Map<String, String> tables) {
    return (ReplyException) Failures.failure(start(sql, tables));
  }
}
