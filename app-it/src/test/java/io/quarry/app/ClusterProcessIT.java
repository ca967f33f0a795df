package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.testing.JarCommand;
import io.quarry.testing.JarNode;
import io.quarry.testing.OwnCluster;
import io.quarry.testing.ParquetFixtures;
import io.quarry.testing.ParquetServer;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three JVMs started from the built jar on loopback (web+storage+llm+dataset; worker; worker): a stream
 * of queries goes on while one worker JVM is killed with SIGKILL.
 */
class ClusterProcessIT {

  static final int QUERIES = 30;
  static final int KILL_AFTER = 8;
  static final long WORKER_WAIT_MS = 4_000;

  @TempDir
  Path dir;

  final List<JarNode> nodes = new ArrayList<>();
  final Vertx vertx = Vertx.vertx();

  @AfterEach
  void stop() {
    nodes.forEach(JarNode::kill);
    vertx.close().await();
  }

  private JarNode launch(String name, String roles, Map<String, String> extra) throws IOException {
    Map<String, String> env = new HashMap<>(extra);
    env.put("QUARRY_DATA_DIR", Files.createDirectories(dir.resolve(name)).toString());
    JarNode node = JarNode.launch(dir.resolve(name + ".log"), env, "--cluster", "--roles", roles, "--config",
        dir.resolve("absent.json").toString());
    nodes.add(node);
    return node;
  }

  /**
   * The files a worker node maps DuckDB's library from that are still on disk: none once it is ready (it deleted the
   * copy its driver unpacked), so that the SIGKILL below leaves nothing in the temporary directory.
   */
  private static List<String> unpackedDuckDb(JarNode node) throws IOException {
    List<String> maps = Files.readAllLines(Path.of("/proc/" + node.process.pid() + "/maps"));
    assertThat(maps).as("the worker node's DuckDB library").anyMatch(line -> line.contains("libduckdb_java"));
    return maps.stream().filter(line -> line.contains("libduckdb_java") && !line.endsWith(" (deleted)")).toList();
  }

  @Test
  @DisplayName("queries keep being answered while a worker JVM is killed: each succeeds or fails clearly in time, nothing is lost")
  void workerKilled() throws Exception {
    ParquetServer files = ParquetServer.start(vertx);
    files.route("/people.parquet").content(ParquetFixtures.people(dir));
    int port = JarCommand.freePort();
    Map<String, String> env = new HashMap<>();
    env.putAll(OwnCluster.env("quarry-it-"));
    env.put("QUARRY_ALLOW_PRIVATE_NETWORKS", "true");
    env.put("QUARRY_QUERY_TIMEOUT_MS", "3000");
    env.put("QUARRY_DATASET_WORKER_TIMEOUT_MS", String.valueOf(WORKER_WAIT_MS));
    env.put("QUARRY_HTTP_PORT", String.valueOf(port));
    JarNode doomed = launch("worker-1", "worker", env);
    JarNode other = launch("worker-2", "worker", env);
    JarNode web = launch("web", "web,storage,llm,dataset", env);
    for (JarNode node : List.of(doomed, other, web)) {
      node.awaitStarted(120);
    }
    // Each node announced itself in the cluster's map before saying it started.
    WebClient client = WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(port));
    JsonObject health = client.get("/api/health").send().await().bodyAsJsonObject();
    assertThat(health.getJsonArray("cluster_members")).hasSize(3);
    assertThat(health.getJsonArray("roles_present")).contains("worker");
    for (JarNode worker : List.of(doomed, other)) {
      assertThat(unpackedDuckDb(worker)).as("DuckDB's library copies on disk, which a SIGKILL would leave").isEmpty();
    }

    String conversation = client.post("/api/conversations").sendJsonObject(new JsonObject()).await().bodyAsJsonObject()
        .getString("id");
    assertThat(client.post("/api/conversations/" + conversation + "/datasets")
        .sendJsonObject(new JsonObject().put("url", files.url("/people.parquet"))).await().statusCode()).isEqualTo(201);

    List<String> results = new ArrayList<>();
    int failures = 0;
    for (int i = 0; i < QUERIES; i++) {
      if (i == KILL_AFTER) {
        doomed.process.destroyForcibly();
        assertThat(doomed.process.waitFor(10, TimeUnit.SECONDS)).isTrue();
      }
      long started = System.nanoTime();
      HttpResponse<Buffer> response = client.post("/api/conversations/" + conversation + "/query")
          .sendJsonObject(new JsonObject().put("sql", "SELECT count(*) AS n, " + i + " AS attempt FROM table1")).await();
      long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
      assertThat(tookMs).as("query %d answered within two worker waits", i).isLessThan(2 * WORKER_WAIT_MS + 5_000);
      if (response.statusCode() == 200) {
        assertThat(response.bodyAsJsonObject().getJsonArray("rows").getJsonArray(0).getLong(0)).isEqualTo(100);
        results.add(response.bodyAsJsonObject().getString("id"));
      } else {
        failures++;
        assertThat(response.statusCode()).as(response.bodyAsString()).isIn(503, 504);
        assertThat(response.bodyAsJsonObject().getString("error")).isNotBlank();
      }
    }
    System.out.printf("%d of %d queries answered, %d failed with a clear error; worker-1 killed before query %d%n",
        results.size(), QUERIES, failures, KILL_AFTER);
    assertThat(results.size()).isGreaterThanOrEqualTo(QUERIES - 2);
    assertThat(failures).isLessThanOrEqualTo(2);
    JsonObject stored = client.get("/api/conversations/" + conversation).send().await().bodyAsJsonObject();
    assertThat(stored.getJsonArray("datasets")).hasSize(1);
    for (String id : results) {
      assertThat(client.get("/api/results/" + id).send().await().statusCode()).isEqualTo(200);
    }
  }
}
