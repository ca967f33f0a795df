package io.quarry.app;

import io.quarry.chat.ChatVerticle;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
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
    if (args.cluster()) {
      return Future.failedFuture(new IllegalArgumentException("--cluster is not available yet in this version"));
    }
    return deploy(Vertx.vertx(vertxOptions()), args, selfServedSamples(config));
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
    Future<ChatVerticle> chain = Future.succeededFuture(null);
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
    return chain
        .map(web -> new Node(vertx, config, web))
        .onSuccess(n -> log.info("Quarry {} started with roles {}", node.getString("version"), node.getJsonArray("roles")))
        .recover(e -> vertx.close().transform(closed -> Future.failedFuture(e)));
  }

  static String version() {
    String version = Launcher.class.getPackage().getImplementationVersion();
    return version == null ? "dev" : version;
  }
}
