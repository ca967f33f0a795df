package io.quarry.worker;

import io.quarry.bus.NodeInfo;
import io.quarry.worker.pool.ClusterKey;
import io.quarry.worker.pool.LocalWorkersConfig;
import io.quarry.worker.pool.Supervised;
import io.quarry.worker.pool.WorkerPoolSettings;
import io.vertx.core.json.JsonObject;
import java.util.concurrent.Callable;

/** The worker role on a node, in one of its three shapes; {@link #of} chooses. */
public sealed interface WorkerRoleSettings {

  /** A node that runs DuckDB itself (worker-only): a pool of one, the worker verticle beside it. */
  record InProcess(WorkerPoolSettings pool) implements WorkerRoleSettings {
  }

  /** A node that must not run DuckDB in its own process: a pool of worker processes it supervises. */
  record Processes(WorkerPoolSettings pool) implements WorkerRoleSettings {
  }

  /**
   * A worker process: its worker verticle is a member of its node's pool, and it answers its node's metrics scrapes.
   *
   * @param supervisor {@code supervisorId/workerId}, as its node passed it
   * @param metrics this process's metrics, in Prometheus's text format (blocking)
   */
  record Member(WorkerSettings worker, String supervisor, Callable<String> metrics) implements WorkerRoleSettings {
  }

  /**
   * How a node's worker processes join it and what they run.
   *
   * @param cluster the cluster section they join (this node's cluster, through this node)
   * @param mainClass the node's own main class, which each runs as a worker process
   */
  record Launch(ClusterKey key, JsonObject cluster, String mainClass) {
  }

  /**
   * From a node's whole configuration: a worker process ({@code supervisor} set) is a member of its node's pool; a
   * node with {@code processes} to supervise starts them ({@code launch} says how); any other runs DuckDB itself.
   */
  static WorkerRoleSettings of(JsonObject nodeConfig, NodeInfo node, String supervisor, int processes, Launch launch,
      Callable<String> metrics) {
    if (supervisor != null) {
      return new Member(WorkerSettings.of(nodeConfig, node).withLocalWorkerId(Supervised.workerId(supervisor)),
          supervisor, metrics);
    }
    if (processes == 0) {
      return new InProcess(WorkerPoolSettings.inProcess(nodeConfig, node));
    }
    return new Processes(new WorkerPoolSettings(node, WorkerSettings.of(nodeConfig, node),
        LocalWorkersConfig.of(nodeConfig).withCount(processes),
        new WorkerPoolSettings.Processes(launch.key(), launch.mainClass(), processConfig(nodeConfig, launch))));
  }

  /** What a worker process reads: its node's worker and query settings, its Vert.x and metrics ones, and its cluster. */
  private static JsonObject processConfig(JsonObject nodeConfig, Launch launch) {
    JsonObject config = new JsonObject().put("cluster", launch.cluster().copy());
    for (String section : new String[] {"worker", "query", "vertx", "metrics"}) {
      config.put(section, nodeConfig.getJsonObject(section).copy());
    }
    return config;
  }
}
