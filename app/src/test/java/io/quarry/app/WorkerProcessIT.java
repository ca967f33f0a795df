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
  @DisplayName("java -jar quarry.jar starts two capped worker processes, which get none of its keys, passwords or tokens;"
      + " killing the node with SIGKILL takes them down too")
  void workersFollowTheirNode() throws Exception {
    int port = JarCommand.freePort();
    Map<String, String> env = new java.util.HashMap<>(SECRETS);
    env.putAll(Map.of("QUARRY_HTTP_PORT", String.valueOf(port), "QUARRY_DATA_DIR", dir.resolve("data").toString(),
        "TZ", "UTC", "LANG", "C.UTF-8", "QUARRY_LOG_LEVEL", "INFO"));
    node = JarNode.launch(dir.resolve("node.log"), List.of("-Dsome.db.password=hunter2",
        "-Djavax.net.ssl.keyStorePassword=changeit", "-Dquarry.test.setting=kept"), env,
        "--config", dir.resolve("absent.json").toString());
    node.awaitStarted(120);

    JsonObject health = WebClient.create(vertx).get(port, "127.0.0.1", "/api/health/nodes").send().await().bodyAsJsonObject();
    JsonArray workers = health.getJsonObject("local_workers").getJsonArray("workers");
    assertThat(workers).hasSize(2);
    List<ProcessHandle> children = workers.stream()
        .map(w -> ProcessHandle.of(((JsonObject) w).getLong("pid")).orElseThrow()).toList();
    for (ProcessHandle child : children) {
      assertThat(child.parent().map(ProcessHandle::pid)).hasValue(node.process.pid());
      assertThat(child.info().commandLine().orElse("")).contains("--roles worker");
      assertOnlyWhatAWorkerNeeds(child.pid());
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

  /** What an operator may have in a node's environment that its worker processes, which run users' SQL, must not get. */
  private static final Map<String, String> SECRETS = Map.of("OPENAI_API_KEY", "sk-test-openai", "GEMINI_API_KEY",
      "test-gemini", "SOME_DB_PASSWORD", "hunter2", "MY_TOKEN", "t0ken", "AWS_SECRET_ACCESS_KEY", "aws-secret");

  /** As the operating system holds them: the worker's environment and command line, read in /proc. */
  private static void assertOnlyWhatAWorkerNeeds(long pid) throws IOException {
    Map<String, String> environment = new java.util.HashMap<>();
    for (String entry : Files.readString(Path.of("/proc/" + pid + "/environ")).split("\0")) {
      int equals = entry.indexOf('=');
      if (equals > 0) {
        environment.put(entry.substring(0, equals), entry.substring(equals + 1));
      }
    }
    assertThat(environment).doesNotContainKeys(SECRETS.keySet().toArray(String[]::new))
        .containsKey("PATH").contains(Map.entry("TZ", "UTC"), Map.entry("LANG", "C.UTF-8"),
            Map.entry("QUARRY_LOG_LEVEL", "INFO"), Map.entry("MALLOC_ARENA_MAX", "2"));
    assertThat(String.join("\n", environment.values())).doesNotContain(SECRETS.values().toArray(String[]::new));
    String commandLine = Files.readString(Path.of("/proc/" + pid + "/cmdline")).replace('\0', ' ');
    assertThat(commandLine).contains("-Dquarry.test.setting=kept").doesNotContain("hunter2", "changeit");
  }

  /** The class archives (and archives being written) in a node's data directory. */
  private static List<Path> archives(Path data) throws IOException {
    try (var files = Files.walk(data)) {
      return files.filter(f -> f.getFileName().toString().contains(".jsa")).toList();
    }
  }
}
