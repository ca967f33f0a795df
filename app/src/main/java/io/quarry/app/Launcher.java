package io.quarry.app;

import io.quarry.bus.LogContext;
import io.quarry.bus.NodeInfo;
import io.quarry.bus.NodeStarts;
import io.quarry.bus.PrivateFiles;
import io.quarry.bus.UrlSeal;
import io.quarry.chat.ChatRole;
import io.quarry.worker.pool.ClusterKey;
import io.quarry.worker.pool.NodeWatch;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.file.FileSystemOptions;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Starts a node: load the configuration, plan, join the cluster, deploy the plan's steps, announce. */
public final class Launcher {

  private static final Logger log = LoggerFactory.getLogger(Launcher.class);

  private Launcher() {
  }

  /** What a node starts from, read and checked before anything runs. */
  private record Setup(Args args, JsonObject config, NodeSettings settings, Plan plan, VertxOptions options,
      ClusterKey key) {
  }

  /** Parses {@code argv} and starts; a failed future carries the one-line reason. */
  public static Future<Node> start(Map<String, String> env, String... argv) {
    return start(env, null, argv);
  }

  /** {@code fromNode}: a worker process's watch on the node that started it (which hands it the key), else null. */
  static Future<Node> start(Map<String, String> env, NodeWatch fromNode, String... argv) {
    Setup setup;
    try {
      setup = setup(env, fromNode, argv);
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
    Preinitializer.start(setup.plan().keepsSqlite(setup.config()), setup.plan().runsQueries());
    ChatRole web = setup.plan().inProcess().contains(Role.WEB) ? new ChatRole() : null;
    NodeMetrics metrics = new NodeMetrics(setup.settings());
    return join(setup, metrics).compose(cluster -> {
      NodeInfo node = new NodeInfo(cluster.nodeId(), version(), setup.plan().labels());
      LogContext.nodeId(node.id());
      LogContext.install(cluster.vertx().eventBus());
      Future<Map<String, String>> deployed = Deployment.runAll(cluster.vertx(),
          setup.plan().deployments(setup.config(), setup.settings(), node, cluster, web, metrics));
      return settle(cluster.vertx(), deployed.map(ids -> new Node(cluster.vertx(), setup.config(), setup.settings(), web,
              metrics, ids)))
          .onSuccess(started -> {
            NodeStarts.publish(cluster.vertx().eventBus());
            announce(node, setup.plan());
          });
    }).onFailure(e -> metrics.close());
  }

  private static Setup setup(Map<String, String> env, NodeWatch fromNode, String... argv) {
    String format = env.getOrDefault("QUARRY_LOG_FORMAT", "text");
    if (!format.equals("text") && !format.equals("json")) {
      // The logging configuration would have found no appender of that name, and said nothing more, ever.
      throw new IllegalArgumentException("QUARRY_LOG_FORMAT must be 'text' or 'json', got '" + format + "'");
    }
    Args args = Args.parse(argv);
    JsonObject config = ConfigLoader.load(args.config(), env, args.roles().contains(Role.WEB));
    Plan plan = Plan.of(args, config);
    plan.dataDirs(config).forEach(Launcher::ownDataDir);
    java.util.function.Supplier<String> urlSecret = () -> UrlKeyFile.in(
        Path.of(config.getJsonObject("storage").getString("dataDir")).toAbsolutePath());
    ClusterKey key = plan.clustered() ? plan.key(config.getJsonObject("cluster"), fromNode, urlSecret)
        : ClusterKey.alone(urlSecret.get());
    // A wrong port is a configuration error, said before anything starts, clustered or not.
    BusPort.parse(config.getJsonObject("cluster").getString("busPort"));
    NodeSettings settings = NodeSettings.from(config);
    return new Setup(args, config, settings, plan, vertxOptions(settings), key);
  }

  /** Refused before anything runs when another account could write it, with how to fix it; else made 0700. */
  private static void ownDataDir(Path dir) {
    try {
      PrivateFiles.dataDir(dir);
    } catch (IOException e) {
      throw new IllegalStateException("Cannot create the data directory " + dir.toAbsolutePath() + ": " + e, e);
    }
  }

  private static Future<Clustering.Joined> join(Setup setup, NodeMetrics metrics) {
    if (!setup.plan().clustered()) {
      Vertx vertx = metrics.into(Vertx.builder(), setup.options()).build();
      UrlSeal.useSecret(vertx, setup.key().urlSecret());
      return Future.succeededFuture(Clustering.Joined.alone(vertx));
    }
    return Clustering.start(setup.plan().cluster(setup.config().getJsonObject("cluster")), setup.key(),
        setup.args().config(), setup.options(), metrics, busPlace(setup));
  }

  /**
   * A node's bus takes the first port of {@code cluster.busPort}'s range, and its worker process N (named
   * {@code local-N}) starts looking N further, so that they do not all reach for the same port at once.
   */
  private static int busPlace(Setup setup) {
    String name = setup.config().getJsonObject("worker").getString("name", "");
    return setup.args().supervisor() != null && name.matches("local-\\d+") ? Integer.parseInt(name.substring(6)) : 0;
  }

  private static void announce(NodeInfo node, Plan plan) {
    log.info("Quarry {} started with roles {}{}", node.version(), node.roles(),
        plan.localWorkers() == 0 ? "" : " (up to " + plan.localWorkers() + " worker processes, started as queries need"
            + " them)");
  }

  /**
   * No path is looked for on the class path, so Vert.x makes no {@code vertx-cache-*} directory in the temporary
   * directory: it unpacked class-path files there and deleted it at a clean stop only, so every node killed outright left
   * one for good. The UI's files are served from memory (the chat role's {@code Webroot}), and every path Quarry opens
   * is a real one; a relative one (a certificate, say) is the working directory's, never a resource's of the same name.
   */
  static FileSystemOptions files() {
    return new FileSystemOptions().setClassPathResolvingEnabled(false).setFileCachingEnabled(false);
  }

  /**
   * Vert.x's own options: {@code vertx.eventLoops} event loops (one by default: DuckDB and SQLite work on
   * threads of their own, and a request that crosses several verticles on one loop is not handed from
   * thread to thread; the dataset benchmark's trivial query took 1.1 ms over DuckDB instead of 1.7 with
   * Vert.x's two per core). The JSON file named by the {@code quarry.vertx.options} system property
   * (tests use it to hear about any blocked event loop) may set any other option, and the loops too.
   */
  static VertxOptions vertxOptions(NodeSettings settings) {
    int loops = settings.eventLoops();
    if (loops < 1) {
      throw new IllegalArgumentException("vertx.eventLoops must be at least 1 (it is " + loops + ")");
    }
    String file = System.getProperty("quarry.vertx.options");
    if (file == null || file.isBlank()) {
      return new VertxOptions().setEventLoopPoolSize(loops).setFileSystemOptions(files());
    }
    try {
      JsonObject options = new JsonObject(java.nio.file.Files.readString(java.nio.file.Path.of(file)));
      return new VertxOptions(new JsonObject().put("eventLoopPoolSize", loops)
          .put("fileSystemOptions", files().toJson()).mergeIn(options));
    } catch (java.io.IOException | RuntimeException e) {
      throw new IllegalArgumentException("Cannot read Vert.x options from " + file + ": " + e.getMessage(), e);
    }
  }

  /** A node that failed to start closes its Vert.x before it reports why. */
  private static Future<Node> settle(Vertx vertx, Future<Node> started) {
    Promise<Node> outcome = Promise.promise();
    started.onComplete(result -> {
      if (result.succeeded()) {
        outcome.complete(result.result());
      } else {
        closeThenFail(vertx, result.cause(), outcome);
      }
    });
    return outcome.future();
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
