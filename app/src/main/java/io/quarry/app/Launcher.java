package io.quarry.app;

import io.quarry.app.workers.ClusterKey;
import io.quarry.app.workers.LocalWorkers;
import io.quarry.app.workers.LocalWorkersConfig;
import io.quarry.chat.ChatVerticle;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Deployable;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Starts a node: reads the configuration, then deploys this node's roles one after another. */
public final class Launcher {

  private static final Logger log = LoggerFactory.getLogger(Launcher.class);

  private Launcher() {
  }

  /** Parses {@code argv} and starts; a failed future carries the one-line reason. */
  public static Future<Node> start(Map<String, String> env, String... argv) {
    FastJsonNumbers.enable();
    Args args;
    JsonObject config;
    Plan plan;
    VertxOptions options;
    ClusterKey key;
    try {
      args = Args.parse(argv);
      config = ConfigLoader.load(args.config(), env);
      plan = Plan.of(args, config);
      options = vertxOptions(config);
      key = plan.clustered() ? plan.key(config.getJsonObject("cluster"), System.in) : null;
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
    JsonObject effective = selfServedSamples(config);
    String nodeId = UUID.randomUUID().toString();
    Future<Clustering.Joined> joined = plan.clustered()
        ? Clustering.start(plan.cluster(config.getJsonObject("cluster")), key, args.config(), options)
        : Future.succeededFuture(new Clustering.Joined(Vertx.vertx(options), null, null));
    return joined.compose(cluster -> deploy(cluster, plan, effective, nodeId));
  }

  /**
   * The sample datasets this server serves under {@code /samples/} must pass the outbound address
   * policy: their exact URL prefix (an IP literal) is trusted, and the UI offers the same URLs.
   */
  static JsonObject selfServedSamples(JsonObject config) {
    JsonObject chat = config.getJsonObject("chat");
    long port = chat.getLong("port", 0L);
    if (port == 0 || !chat.getString("samplesBaseUrl", "").isBlank()) {
      return config;
    }
    String host = chat.getString("host", "127.0.0.1");
    String self = host.equals("0.0.0.0") || host.equals("::") || host.equals("localhost") ? "127.0.0.1"
        : host.contains(":") ? "[" + host + "]" : host;
    String base = "http://" + self + ":" + port + "/samples/";
    chat.put("samplesBaseUrl", base);
    for (String section : new String[] {"dataset", "worker"}) {
      JsonObject values = config.getJsonObject(section);
      String trusted = values.getString("trustedUrlPrefixes", "");
      values.put("trustedUrlPrefixes", trusted.isBlank() ? base : trusted + "," + base);
    }
    return config;
  }

  /**
   * Vert.x's own options: {@code vertx.eventLoops} event loops (one by default: DuckDB and SQLite work on
   * threads of their own, and a request that crosses several verticles on one loop is not handed from
   * thread to thread; the dataset benchmark's trivial query took 1.1 ms over DuckDB instead of 1.7 with
   * Vert.x's two per core). The JSON file named by the {@code quarry.vertx.options} system property
   * (tests use it to hear about any blocked event loop) may set any other option, and the loops too.
   */
  static VertxOptions vertxOptions(JsonObject config) {
    int loops = config.getJsonObject("vertx").getInteger("eventLoops");
    if (loops < 1) {
      throw new IllegalArgumentException("vertx.eventLoops must be at least 1 (it is " + loops + ")");
    }
    String file = System.getProperty("quarry.vertx.options");
    if (file == null || file.isBlank()) {
      return new VertxOptions().setEventLoopPoolSize(loops);
    }
    try {
      JsonObject options = new JsonObject(java.nio.file.Files.readString(java.nio.file.Path.of(file)));
      return new VertxOptions(new JsonObject().put("eventLoopPoolSize", loops).mergeIn(options));
    } catch (java.io.IOException | RuntimeException e) {
      throw new IllegalArgumentException("Cannot read Vert.x options from " + file + ": " + e.getMessage(), e);
    }
  }

  private static Future<Node> deploy(Clustering.Joined cluster, Plan plan, JsonObject config, String nodeId) {
    Vertx vertx = cluster.vertx();
    JsonObject node = new JsonObject()
        .put("id", nodeId)
        .put("version", version())
        .put("roles", new JsonArray(plan.labels()));
    LocalWorkers workers = plan.localWorkers() > 0 ? new LocalWorkers(cluster.key()) : null;
    Future<Void> chain = vertx.deployVerticle(new NodeVerticle(),
        new DeploymentOptions().setConfig(new JsonObject().put("node", node))).mapEmpty();
    if (workers != null) {
      // First, so that the worker processes start while the other roles deploy.
      JsonObject setup = localWorkers(plan, config, node, cluster);
      chain = chain.compose(v -> deploy(vertx, Role.WORKER, workers, setup));
    }
    JsonObject sections = plan.supervisor() == null ? config : asWorkerProcess(config, plan.supervisor());
    for (Role role : plan.inProcess()) {
      if (role != Role.WEB) {
        chain = chain.compose(v -> deploy(vertx, role, role.verticle.get(), section(sections, role, node)));
      }
    }
    if (workers != null) {
      // HTTP opens only once queries can run.
      chain = chain.compose(v -> workers.ready());
    }
    Future<ChatVerticle> web = chain.compose(v -> {
      if (!plan.inProcess().contains(Role.WEB)) {
        return Future.succeededFuture(null);
      }
      ChatVerticle chat = (ChatVerticle) Role.WEB.verticle.get();
      return deploy(vertx, Role.WEB, chat, section(sections, Role.WEB, node)).map(chat);
    });
    Future<ChatVerticle> started = web
        .compose(chat -> plan.supervisor() == null ? Future.succeededFuture(chat)
            : Supervised.begin(vertx, plan.supervisor()).map(chat));
    Promise<Node> outcome = Promise.promise();
    started.map(chat -> new Node(vertx, config, chat)).onComplete(result -> {
      if (result.succeeded()) {
        log.info("Quarry {} started with roles {}{}", node.getString("version"), node.getJsonArray("roles"),
            workers == null ? "" : " (" + plan.localWorkers() + " worker processes)");
        outcome.complete(result.result());
      } else {
        closeThenFail(vertx, result.cause(), outcome);
      }
    });
    return outcome.future();
  }

  private static JsonObject section(JsonObject config, Role role, JsonObject node) {
    return config.getJsonObject(role.configSection, new JsonObject()).copy().put("node", node);
  }

  /** A worker process serves its node only, on an address of its own. */
  private static JsonObject asWorkerProcess(JsonObject config, String supervisor) {
    JsonObject copy = config.copy();
    copy.getJsonObject("worker").put("localWorkerId", Supervised.workerId(supervisor));
    return copy;
  }

  /** Deploys one role's verticle; a failure names the role. */
  private static Future<Void> deploy(Vertx vertx, Role role, Deployable verticle, JsonObject config) {
    return vertx.deployVerticle(verticle, new DeploymentOptions().setConfig(config))
        .recover(e -> Future.failedFuture(new IllegalStateException(role.label + " failed to start: " + e.getMessage(), e)))
        .mapEmpty();
  }

  /**
   * What the node's worker processes are told: the node's worker settings, and how to join this node's
   * cluster (through this very member, as lite members: they hold no cluster data, so one dying loses none).
   */
  private static JsonObject localWorkers(Plan plan, JsonObject config, JsonObject node, Clustering.Joined cluster) {
    JsonObject clusterSection = plan.cluster(config.getJsonObject("cluster")).copy()
        .put("members", cluster.member())
        .put("liteMember", true);
    return new JsonObject()
        .put("node", node)
        .put("settings", LocalWorkersConfig.from(config.getJsonObject("localWorkers")).withCount(plan.localWorkers()).toJson())
        .put("home", Path.of(config.getJsonObject("worker").getString("dataDir", "./data"), "workers").toString())
        .put("mainClass", Main.class.getName())
        .put("child", new JsonObject().put("worker", config.getJsonObject("worker").copy()).put("cluster", clusterSection)
            .put("vertx", config.getJsonObject("vertx").copy()));
  }

  /**
   * Closes Vert.x from a thread of its own: closed from one of its event loops, the close could not report
   * back (that loop is gone by then) and the caller would wait forever.
   */
  private static void closeThenFail(Vertx vertx, Throwable cause, Promise<Node> started) {
    Thread closer = new Thread(() -> {
      try {
        vertx.close().toCompletionStage().toCompletableFuture().get(30, java.util.concurrent.TimeUnit.SECONDS);
      } catch (Exception e) {
        log.warn("Vert.x did not close cleanly after a failed start: {}", e.toString());
      }
      started.fail(cause);
    }, "quarry-failed-start");
    closer.start();
  }

  static String version() {
    String version = Launcher.class.getPackage().getImplementationVersion();
    return version == null ? "dev" : version;
  }
}
