package io.quarry.bench;

import io.quarry.app.Launcher;
import io.quarry.app.Node;
import io.quarry.testing.ParquetFixtures;
import io.quarry.testing.ParquetServer;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * Issue 7's benchmark, on loopback only: the time for a fixed batch of group-by queries (run 8 at a time)
 * with one worker node, then with two, in one run, in one JVM. The figures depend on the cores: on a
 * 2-core machine two worker nodes share the same two cores.
 */
public final class ClusterBench {

  private static final int QUERIES = 48;
  private static final int CONCURRENCY = 8;

  public static void main(String[] args) throws Exception {
    Path work = Scratch.dir("quarry-cluster-bench");
    Vertx outside = Vertx.vertx();
    ParquetServer files = ParquetServer.start(outside);
    Path data = work.resolve("events.parquet");
    ParquetFixtures.create(data, "SELECT i AS id, i % 500 AS g, random() AS v, md5(i::VARCHAR) AS h FROM range(3000000) t(i)");
    files.route("/events.parquet").file(data);
    Map<String, String> env = new HashMap<>();
    env.put("QUARRY_CLUSTER_NAME", "quarry-bench-" + UUID.randomUUID());
    env.put("QUARRY_ALLOW_PRIVATE_NETWORKS", "true");
    env.put("QUARRY_HTTP_PORT", "0");
    List<Node> nodes = new ArrayList<>();
    try {
      nodes.add(start(env, work, "worker-1", "worker"));
      Node web = start(env, work, "web", "web,storage,llm,dataset");
      nodes.add(web);
      WebClient client = WebClient.create(outside, new WebClientOptions().setDefaultHost("127.0.0.1")
          .setDefaultPort(web.httpPort()).setKeepAlive(true));
      String conversation = client.post("/api/conversations").sendJsonObject(new JsonObject()).await().bodyAsJsonObject()
          .getString("id");
      client.post("/api/conversations/" + conversation + "/datasets")
          .sendJsonObject(new JsonObject().put("url", files.url("/events.parquet"))).await();
      System.out.printf(Locale.ROOT, "%nBatch of %d group-by queries over 3 M rows, %d at a time, %d cores%n", QUERIES,
          CONCURRENCY, Runtime.getRuntime().availableProcessors());
      batch(client, conversation); // warms both the cache and the JIT
      double one = batch(client, conversation);
      System.out.printf(Locale.ROOT, "   1 worker node : %7.0f ms  (%.1f queries/s)%n", one, QUERIES * 1000 / one);
      nodes.add(start(env, work, "worker-2", "worker"));
      batch(client, conversation);
      double two = batch(client, conversation);
      System.out.printf(Locale.ROOT, "   2 worker nodes: %7.0f ms  (%.1f queries/s)   speed-up %.2f×%n", two, QUERIES * 1000 / two,
          one / two);
    } finally {
      for (Node node : nodes) {
        node.stop().await();
      }
      outside.close().await();
    }
  }

  private static Node start(Map<String, String> env, Path work, String name, String roles) throws Exception {
    Map<String, String> nodeEnv = new HashMap<>(env);
    nodeEnv.put("QUARRY_DATA_DIR", Files.createDirectories(work.resolve(name)).toString());
    return Launcher.start(nodeEnv, "--config", work.resolve("none.json").toString(), "--cluster", "--roles", roles).await();
  }

  private static double batch(WebClient client, String conversation) {
    long started = System.nanoTime();
    for (int round = 0; round < QUERIES / CONCURRENCY; round++) {
      List<Future<?>> running = new ArrayList<>();
      for (int i = 0; i < CONCURRENCY; i++) {
        String sql = "SELECT g, count(*) AS n, avg(v) AS mean FROM table1 WHERE id % " + (i + 2) + " = 0 GROUP BY g ORDER BY g";
        running.add(client.post("/api/conversations/" + conversation + "/query").sendJsonObject(new JsonObject().put("sql", sql))
            .map(r -> {
              if (r.statusCode() != 200) {
                throw new IllegalStateException(r.bodyAsString());
              }
              return r;
            }));
      }
      Future.all(running).await();
    }
    return (System.nanoTime() - started) / 1e6;
  }
}
