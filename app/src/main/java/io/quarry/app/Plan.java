package io.quarry.app;

import io.quarry.bus.NodeInfo;
import io.quarry.chat.ChatVerticle;
import io.quarry.worker.WorkerVerticle;
import io.quarry.worker.pool.ClusterKey;
import io.quarry.worker.pool.LocalWorkersConfig;
import io.quarry.worker.pool.Supervised;
import io.quarry.worker.pool.WorkerPool;
import io.vertx.core.Deployable;
import io.vertx.core.json.JsonObject;
import java.io.InputStream;
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
      local = args.localWorkers() >= 0 ? args.localWorkers()
          : LocalWorkersConfig.from(config.getJsonObject("localWorkers")).count();
    }
    return new Plan(List.copyOf(roles), local, args.cluster(), args.supervisor());
  }

  /** The data directories this node writes: SQLite's (storage role on SQLite), and its workers' (worker role). */
  Set<Path> dataDirs(JsonObject config) {
    Set<Path> dirs = new LinkedHashSet<>();
    JsonObject storage = config.getJsonObject("storage");
    if (inProcess.contains(Role.STORAGE) && "sqlite".equals(storage.getString("backend"))) {
      dirs.add(Path.of(storage.getString("dataDir")).toAbsolutePath());
    }
    if (inProcess.contains(Role.WORKER) || localWorkers > 0) {
      dirs.add(Path.of(config.getJsonObject("worker").getString("dataDir")).toAbsolutePath());
    }
    return dirs;
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
    return privateCluster() ? ClusterKey.random() : ClusterKey.named(configured.getString("name"));
  }

  /**
   * What this node deploys, in order: its announcement; its metrics (a worker process answers its node; any other
   * serves them on the management listener, unless its port is 0); its worker processes' pool first (they start while
   * the other roles deploy); the roles, storage first; then, once queries can run, the HTTP edge
   * ({@code web}, when the node has that role), so that listening means ready; a worker process last tells
   * its node it is ready.
   */
  List<Deployment> deployments(JsonObject config, NodeInfo node, Clustering.Joined cluster, ChatVerticle web,
      NodeMetrics metrics) {
    List<Deployment> steps = new ArrayList<>();
    steps.add(Deployment.of("node", new NodeVerticle(), node.into(new JsonObject())));
    JsonObject metricsSection = config.getJsonObject("metrics");
    if (supervisor != null) {
      steps.add(Deployment.of("metrics", new WorkerProcessMetrics(metrics),
          new JsonObject().put("workerId", Supervised.workerId(supervisor))));
    } else if (metricsSection.getInteger("port") > 0) {
      steps.add(Deployment.of("metrics", new MetricsEndpoint(metrics), metricsSection.copy()));
    }
    WorkerPool processes = localWorkers > 0 ? WorkerPool.ofProcesses(cluster.key()) : null;
    if (processes != null) {
      steps.add(Deployment.of(Role.WORKER.label, processes, processPool(config, node, cluster)));
    }
    for (Role role : inProcess) {
      if (role != Role.WEB) {
        steps.add(Deployment.of(role.label, verticle(role), roleConfig(config, role, node)));
      }
    }
    if (processes != null) {
      steps.add(Deployment.waitFor(vertx -> processes.ready()));
    }
    if (web != null) {
      steps.add(Deployment.of(Role.WEB.label, web, roleConfig(config, Role.WEB, node)));
    }
    if (supervisor != null) {
      steps.add(Deployment.waitFor(vertx -> Supervised.begin(vertx, supervisor)));
    }
    return steps;
  }

  /** A worker process's worker verticle is a member of its node's pool; elsewhere the worker role is a pool. */
  private Deployable verticle(Role role) {
    return role == Role.WORKER && supervisor != null ? new WorkerVerticle() : role.verticle.get();
  }

  /** A role's section, with what every role knows: its node, and the query timeout every wait derives from. */
  private JsonObject roleConfig(JsonObject config, Role role, NodeInfo node) {
    JsonObject section = config.getJsonObject(role.configSection, new JsonObject()).copy();
    JsonObject query = config.getJsonObject("query").copy();
    if (role == Role.WEB) {
      return node.into(section).put("query", query).put("export", config.getJsonObject("export").copy());
    }
    if (role != Role.WORKER) {
      return node.into(section).put("query", query);
    }
    if (supervisor != null) {
      return node.into(section).put("query", query).put("localWorkerId", Supervised.workerId(supervisor));
    }
    return node.into(new JsonObject()).put("query", query).put("worker", section)
        .put("settings", config.getJsonObject("localWorkers").copy());
  }

  /**
   * What the node's worker processes are told: the node's worker settings, and how to join this node's
   * cluster (through this very member, as lite members: they hold no cluster data, so one dying loses none).
   */
  private JsonObject processPool(JsonObject config, NodeInfo node, Clustering.Joined cluster) {
    JsonObject clusterSection = cluster(config.getJsonObject("cluster")).copy()
        .put("members", cluster.member())
        .put("liteMember", true);
    return node.into(new JsonObject())
        .put("query", config.getJsonObject("query").copy())
        .put("settings", LocalWorkersConfig.from(config.getJsonObject("localWorkers")).withCount(localWorkers).toJson())
        .put("home", Path.of(config.getJsonObject("worker").getString("dataDir", "./data"), "workers").toString())
        .put("mainClass", Main.class.getName())
        .put("worker", config.getJsonObject("worker").copy())
        .put("metrics", config.getJsonObject("metrics").copy())
        .put("cluster", clusterSection)
        .put("vertx", config.getJsonObject("vertx").copy());
  }
}
