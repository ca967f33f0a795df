package io.quarry.app;

import io.quarry.chat.ChatVerticle;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Deployable;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
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
    Args args;
    JsonObject config;
    try {
      args = Args.parse(argv);
      config = ConfigLoader.load(args.config(), env);
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
    JsonObject effective = selfServedSamples(config);
    Future<Vertx> vertx = args.cluster()
        ? Clustering.start(config.getJsonObject("cluster"), args.config(), vertxOptions())
        : Future.succeededFuture(Vertx.vertx(vertxOptions()));
    return vertx.compose(v -> deploy(v, args, effective));
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
   * Vert.x's own options (event loops, blocked-thread checker) from the JSON file named by the
   * {@code quarry.vertx.options} system property; tests use it to hear about any blocked event loop.
   */
  static VertxOptions vertxOptions() {
    String file = System.getProperty("quarry.vertx.options");
    if (file == null || file.isBlank()) {
      return new VertxOptions();
    }
    try {
      return new VertxOptions(new JsonObject(java.nio.file.Files.readString(java.nio.file.Path.of(file))));
    } catch (java.io.IOException | RuntimeException e) {
      throw new IllegalArgumentException("Cannot read Vert.x options from " + file + ": " + e.getMessage(), e);
    }
  }

  private static Future<Node> deploy(Vertx vertx, Args args, JsonObject config) {
    JsonObject node = new JsonObject()
        .put("id", UUID.randomUUID().toString())
        .put("version", version())
        .put("roles", new JsonArray(args.roles().stream().map(r -> r.label).toList()));
    Future<ChatVerticle> chain = vertx.deployVerticle(new NodeVerticle(),
        new DeploymentOptions().setConfig(new JsonObject().put("node", node))).map((ChatVerticle) null);
    for (Role role : args.roles()) {
      chain = chain.compose(web -> {
        Deployable verticle = role.verticle.get();
        JsonObject section = config.getJsonObject(role.configSection, new JsonObject()).copy().put("node", node);
        return vertx.deployVerticle(verticle, new DeploymentOptions().setConfig(section))
            .recover(e -> Future.failedFuture(new IllegalStateException(
                role.label + " failed to start: " + e.getMessage(), e)))
            .map(id -> verticle instanceof ChatVerticle chat ? chat : web);
      });
    }
    Promise<Node> started = Promise.promise();
    chain.map(web -> new Node(vertx, config, web)).onComplete(outcome -> {
      if (outcome.succeeded()) {
        log.info("Quarry {} started with roles {}", node.getString("version"), node.getJsonArray("roles"));
        started.complete(outcome.result());
      } else {
        closeThenFail(vertx, outcome.cause(), started);
      }
    });
    return started.future();
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
