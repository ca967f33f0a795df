package io.quarry.app;

import io.quarry.bus.NodeInfo;
import io.quarry.chat.ChatRole;
import io.quarry.chat.ChatSettings;
import io.quarry.dataset.DatasetRole;
import io.quarry.dataset.DatasetSettings;
import io.quarry.llm.LlmRole;
import io.quarry.llm.LlmSettings;
import io.quarry.storage.StorageRole;
import io.quarry.storage.StorageSettings;
import io.quarry.worker.WorkerRole;
import io.quarry.worker.WorkerRoleSettings;
import io.quarry.worker.pool.ClusterKey;
import io.quarry.worker.pool.LocalWorkersConfig;
import io.quarry.worker.pool.NodeWatch;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
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
      local = args.localWorkers() >= 0 ? args.localWorkers() : LocalWorkersConfig.of(config).count();
    }
    return new Plan(List.copyOf(roles), local, args.cluster(), args.supervisor());
  }

  /**
   * The data directories this node writes: SQLite's (storage role on SQLite), its workers' (worker role), and its
   * users' uploads (web role).
   */
  Set<Path> dataDirs(JsonObject config) {
    Set<Path> dirs = new LinkedHashSet<>();
    if (keepsSqlite(config)) {
      dirs.add(Path.of(config.getJsonObject("storage").getString("dataDir")).toAbsolutePath());
    }
    if (inProcess.contains(Role.WORKER) || localWorkers > 0) {
      dirs.add(Path.of(config.getJsonObject("worker").getString("dataDir")).toAbsolutePath());
    }
    if (inProcess.contains(Role.WEB)) {
      dirs.add(Path.of(config.getJsonObject("chat").getString("dataDir")).toAbsolutePath());
    }
    return dirs;
  }

  /** Whether this process opens SQLite: it has the storage role, on the SQLite backend. */
  boolean keepsSqlite(JsonObject config) {
    return inProcess.contains(Role.STORAGE) && "sqlite".equals(config.getJsonObject("storage").getString("backend"));
  }

  /** DuckDB runs in this process: a worker process, or a node whose worker role has no processes of its own. */
  boolean runsQueries() {
    return inProcess.contains(Role.WORKER);
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
    // Its bus listens on loopback, for its own workers only: no firewall to open, so any free port.
    return configured.copy().put("name", "quarry-local").put("host", "127.0.0.1").put("members", "")
        .put("heartbeatSeconds", 1).put("maxNoHeartbeatSeconds", 5).put("busPort", "");
  }

  /**
   * What admits a process to the cluster: a private cluster's random name and event-bus secret (so two
   * nodes on one machine never merge, and no other program joins or sends), or what the node's supervisor
   * handed a worker process over its standard input, or the configured cluster's name.
   */
  ClusterKey key(JsonObject configured, NodeWatch fromSupervisor, java.util.function.Supplier<String> urlSecret) {
    if (supervisor != null) {
      if (fromSupervisor == null) {
        throw new IllegalArgumentException("--supervisor is for the worker processes a node starts");
      }
      return ClusterKey.parse(fromSupervisor.keyLine());
    }
    return privateCluster() ? ClusterKey.random(urlSecret.get()) : ClusterKey.named(configured.getString("name"));
  }

  /**
   * What this node deploys, in order: its announcement; its metrics (a worker process answers its node's scrapes, see
   * its worker role; any other node serves them on the management listener, unless its port is 0); its worker
   * processes' pool first (they start when queries need them, or with the node while it deploys the rest, and it does
   * not wait for them: a query waits for its worker, a question does not); the roles, storage first; a worker-only
   * node's readiness; then the HTTP edge ({@code web}, when the node has that role), so that listening means ready.
   */
  List<Deployment> deployments(JsonObject config, NodeSettings settings, NodeInfo node, Clustering.Joined cluster,
      ChatRole web, NodeMetrics metrics) {
    List<Deployment> steps = new ArrayList<>();
    steps.add(Deployment.of("node", new NodeVerticle(), node.into(new JsonObject())));
    if (supervisor == null && settings.metricsEnabled()) {
      steps.add(Deployment.of("metrics", new MetricsEndpoint(metrics, settings), new JsonObject()));
    }
    Promise<WorkerRole> deployedWorker = Promise.promise();
    Deployment worker = Deployment.role(Role.WORKER.label, vertx -> WorkerRole.deploy(vertx,
            WorkerRoleSettings.of(config, node, supervisor, localWorkers, launch(config, cluster), metrics::scrape))
        .onSuccess(deployedWorker::complete).map(WorkerRole::deploymentId));
    if (localWorkers > 0) {
      steps.add(worker);
    }
    for (Role role : inProcess) {
      switch (role) {
        case STORAGE -> steps.add(Deployment.role(role.label,
            vertx -> StorageRole.deploy(vertx, StorageSettings.of(config, node))));
        case WORKER -> steps.add(worker);
        case DATASET -> steps.add(Deployment.role(role.label,
            vertx -> DatasetRole.deploy(vertx, DatasetSettings.of(config, node))));
        case LLM -> steps.add(Deployment.role(role.label, vertx -> LlmRole.deploy(vertx, LlmSettings.of(config, node))));
        case WEB -> {
          // Last, below.
        }
      }
    }
    if (inProcess.contains(Role.WORKER)) {
      steps.add(Deployment.waitFor(vertx -> deployedWorker.future().compose(WorkerRole::ready)));
    }
    if (web != null) {
      steps.add(Deployment.role(Role.WEB.label, vertx -> web.deploy(vertx, ChatSettings.of(config, node))));
    }
    return steps;
  }

  /**
   * How this node's worker processes join it: through this very member, as lite members (they hold no cluster data,
   * so one dying loses none); they run this node's main class. None without worker processes.
   */
  private WorkerRoleSettings.Launch launch(JsonObject config, Clustering.Joined cluster) {
    if (localWorkers == 0) {
      return null;
    }
    JsonObject joined = cluster(config.getJsonObject("cluster")).copy()
        .put("members", cluster.member())
        .put("liteMember", true);
    return new WorkerRoleSettings.Launch(cluster.key(), joined, Main.class.getName());
  }
}
