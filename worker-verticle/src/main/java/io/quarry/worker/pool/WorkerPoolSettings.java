package io.quarry.worker.pool;

import io.quarry.bus.NodeInfo;
import io.quarry.worker.WorkerSettings;
import io.vertx.core.json.JsonObject;

/**
 * What a node's worker pool needs.
 *
 * @param node the node it serves (its worker processes' supervisor)
 * @param worker the worker settings: its member's, in this process; each process's threads, for processes
 * @param members how many members, how long they may take to start, how many queries wait for one
 * @param processes how its worker processes start; null for a pool of one in this process
 */
public record WorkerPoolSettings(NodeInfo node, WorkerSettings worker, LocalWorkersConfig members, Processes processes) {

  /**
   * @param key how the processes join this node's cluster, handed to each over its standard input
   * @param mainClass what each process runs: the node's own main class, as a worker process
   * @param configuration each process's configuration file, but for its worker's name
   */
  public record Processes(ClusterKey key, String mainClass, JsonObject configuration) {
  }

  /** A pool of one in this process (a worker-only node), from a node's whole configuration. */
  public static WorkerPoolSettings inProcess(JsonObject nodeConfig, NodeInfo node) {
    return new WorkerPoolSettings(node, WorkerSettings.of(nodeConfig, node), LocalWorkersConfig.of(nodeConfig), null);
  }
}
