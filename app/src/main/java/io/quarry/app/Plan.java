package io.quarry.app;

import io.quarry.app.workers.ClusterKey;
import io.quarry.app.workers.LocalWorkersConfig;
import io.vertx.core.json.JsonObject;
import java.io.InputStream;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * What a node runs, and where. DuckDB never runs in a process that serves HTTP, runs LLM turns or owns
 * SQLite: there the worker role becomes worker processes this node supervises, joined to it over the
 * clustered event bus (a private loopback cluster when the node is not in one).
 *
 * @param inProcess roles deployed in this process, in deployment order
 * @param localWorkers worker processes to supervise
 * @param configuredCluster whether the node was asked to join the configured cluster ({@code --cluster})
 * @param supervisor {@code supervisorId/workerId} when this process is such a worker, else null
 */
record Plan(List<Role> inProcess, int localWorkers, boolean configuredCluster, String supervisor) {

  private static final Set<Role> FRONT = EnumSet.of(Role.WEB, Role.LLM, Role.STORAGE);

  static Plan of(Args args, JsonObject config) {
    EnumSet<Role> roles = EnumSet.copyOf(args.roles());
    boolean front = roles.stream().anyMatch(FRONT::contains);
    int local = 0;
    if (args.supervisor() == null && front && roles.remove(Role.WORKER)) {
      local = args.localWorkers() >= 0 ? args.localWorkers()
          : LocalWorkersConfig.from(config.getJsonObject("localWorkers")).count();
    }
    return new Plan(List.copyOf(roles), local, args.cluster(), args.supervisor());
  }

  /** Joins a cluster: the configured one, or a private one for its worker processes. */
  boolean clustered() {
    return configuredCluster || localWorkers > 0;
  }

  boolean privateCluster() {
    return !configuredCluster && localWorkers > 0;
  }

  /** The roles this node stands for in the cluster: its worker processes count as its worker role. */
  List<String> labels() {
    EnumSet<Role> shown = inProcess.isEmpty() ? EnumSet.noneOf(Role.class) : EnumSet.copyOf(inProcess);
    if (localWorkers > 0) {
      shown.add(Role.WORKER);
    }
    return shown.stream().map(r -> r.label).toList();
  }

  /**
   * How this node joins: the configured cluster, or a private one on loopback that only its own worker
   * processes join, where a dead member is noticed within seconds (its name is the node's secret: see
   * {@link #key}).
   */
  JsonObject cluster(JsonObject configured) {
    if (!privateCluster()) {
      return configured;
    }
    return configured.copy().put("name", "quarry-local").put("host", "127.0.0.1").put("members", "")
        .put("heartbeatSeconds", 1).put("maxNoHeartbeatSeconds", 5);
  }

  /**
   * What admits a process to the cluster: a private cluster's random name and event-bus secret (so two
   * nodes on one machine never merge, and no other program joins or sends), or what the node's supervisor
   * handed a worker process over its standard input, or the configured cluster's name.
   */
  ClusterKey key(JsonObject configured, InputStream fromSupervisor) {
    if (supervisor != null) {
      return ClusterKey.receive(fromSupervisor);
    }
    return privateCluster() ? ClusterKey.random() : ClusterKey.named(configured.getString("name", "quarry"));
  }
}
