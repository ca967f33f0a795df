package io.quarry.bench;

import io.quarry.testing.JarCommand;
import io.quarry.testing.JarNode;
import io.vertx.core.Vertx;
import io.vertx.core.http.PoolOptions;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A node of a jar in a JVM of its own, as production runs it, on a port of its own, with a client of the benchmark's;
 * its output goes to {@code node.log} in its data directory. Stopped on close.
 */
final class BenchJarNode implements AutoCloseable {

  private static final long START_LIMIT_S = 180;

  final JarNode node;
  final int port;
  final WebClient client;

  private BenchJarNode(JarNode node, int port, WebClient client) {
    this.node = node;
    this.port = port;
    this.client = client;
  }

  /**
   * {@code jvm}: the node's JVM options, as an operator's command line gives them; {@code env}: its settings, over a
   * data directory {@code data} and the port; {@code connections}: how many the client keeps to it.
   */
  static BenchJarNode start(Path jar, List<String> jvm, Map<String, String> env, Path data, Vertx outside,
      int connections) throws Exception {
    Files.createDirectories(data);
    int port = JarCommand.freePort();
    Map<String, String> all = new HashMap<>(env);
    all.put("QUARRY_HTTP_PORT", String.valueOf(port));
    all.put("QUARRY_DATA_DIR", data.toString());
    JarNode node = JarNode.launchAsGiven(jar, jvm, data.resolve("node.log"), all, "--config",
        data.resolve("absent.json").toString());
    try {
      node.awaitStarted(START_LIMIT_S);
    } catch (Exception | AssertionError e) {
      node.kill();
      throw new IllegalStateException("the node did not start within " + START_LIMIT_S + " s; see "
          + data.resolve("node.log"), e);
    }
    return new BenchJarNode(node, port, WebClient.create(outside, new WebClientOptions().setDefaultHost("127.0.0.1")
        .setDefaultPort(port), new PoolOptions().setHttp1MaxSize(connections)));
  }

  /** SIGTERM, as an operator stops it, through its handle (see {@link JarNode#terminate}); killed if it outlasts 60 s. */
  @Override
  public void close() throws Exception {
    client.close();
    node.terminate();
    try {
      node.awaitEnded(60);
    } finally {
      if (node.process.isAlive()) {
        node.kill();
      }
    }
  }
}
