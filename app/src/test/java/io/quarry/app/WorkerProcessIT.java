package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.testing.JarCommand;
import io.quarry.testing.JarNode;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The built jar in its default mode, as an operator runs it: its worker processes live and die with it. */
class WorkerProcessIT {

  @TempDir
  Path dir;

  final Vertx vertx = Vertx.vertx();
  JarNode node;

  @AfterEach
  void stop() {
    if (node != null) {
      node.kill();
    }
    vertx.close().await();
  }

  @Test
  @DisplayName("java -jar quarry.jar starts two capped worker processes; killing the node with SIGKILL takes them down too")
  void workersFollowTheirNode() throws Exception {
    int port = JarCommand.freePort();
    node = JarNode.launch(dir.resolve("node.log"), Map.of("QUARRY_HTTP_PORT", String.valueOf(port),
        "QUARRY_DATA_DIR", dir.resolve("data").toString()), "--config", dir.resolve("absent.json").toString());
    node.awaitStarted(120);

    JsonObject health = WebClient.create(vertx).get(port, "127.0.0.1", "/api/health/nodes").send().await().bodyAsJsonObject();
    JsonArray workers = health.getJsonObject("local_workers").getJsonArray("workers");
    assertThat(workers).hasSize(2);
    List<ProcessHandle> children = workers.stream()
        .map(w -> ProcessHandle.of(((JsonObject) w).getLong("pid")).orElseThrow()).toList();
    for (ProcessHandle child : children) {
      assertThat(child.parent().map(ProcessHandle::pid)).hasValue(node.process.pid());
      assertThat(child.info().commandLine().orElse("")).contains("--roles worker");
    }
    assertThat(workers.getJsonObject(0).getLong("memory_cap_bytes")).isEqualTo(3072L << 20);

    node.process.destroyForcibly();
    for (ProcessHandle child : children) {
      child.onExit().get(60, TimeUnit.SECONDS);
      assertThat(child.isAlive()).isFalse();
    }
  }

  @Test
  @DisplayName("a node stopped with SIGTERM leaves its workers' class archive in place, and the next start's workers map"
      + " it; no half-written archive is left behind")
  void classArchiveKept() throws Exception {
    Path data = dir.resolve("data");
    Map<String, String> env = Map.of("QUARRY_HTTP_PORT", String.valueOf(JarCommand.freePort()),
        "QUARRY_DATA_DIR", data.toString(), "QUARRY_LOCAL_WORKERS", "1");
    node = JarNode.launch(dir.resolve("first.log"), env, "--config", dir.resolve("absent.json").toString());
    node.awaitStarted(120);
    node.terminate();
    node.awaitEnded(60);
    assertThat(archives(data)).singleElement().satisfies(a -> assertThat(a.getFileName().toString()).endsWith(".jsa"));

    node = JarNode.launch(dir.resolve("second.log"), env, "--config", dir.resolve("absent.json").toString());
    node.awaitStarted(120);
    List<String> workers = node.process.descendants().map(p -> p.info().commandLine().orElse(""))
        .filter(c -> c.contains("--roles worker")).toList();
    assertThat(workers).singleElement().asString().contains("-XX:SharedArchiveFile=" + archives(data).get(0));
  }

  /** The class archives (and archives being written) in a node's data directory. */
  private static List<Path> archives(Path data) throws IOException {
    try (var files = Files.walk(data)) {
      return files.filter(f -> f.getFileName().toString().contains(".jsa")).toList();
    }
  }
}
