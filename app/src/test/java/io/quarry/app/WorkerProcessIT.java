package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
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
  Process node;

  @AfterEach
  void stop() {
    if (node != null) {
      node.descendants().forEach(ProcessHandle::destroyForcibly);
      node.destroyForcibly();
    }
    vertx.close().await();
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  /** Reads the node's output until it says it started (the event to wait for), at most 120 s. */
  private void awaitStarted(Process process) throws Exception {
    CompletableFuture<Void> started = new CompletableFuture<>();
    Thread reader = new Thread(() -> {
      try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line = lines.readLine(); line != null; line = lines.readLine()) {
          if (line.contains("Quarry") && line.contains("started with roles") && line.contains("worker processes")) {
            started.complete(null);
          }
        }
        started.completeExceptionally(new AssertionError("the node ended before it started"));
      } catch (IOException e) {
        started.completeExceptionally(e);
      }
    });
    reader.setDaemon(true);
    reader.start();
    started.get(120, TimeUnit.SECONDS);
  }

  @Test
  @DisplayName("java -jar quarry.jar starts two capped worker processes; killing the node with SIGKILL takes them down too")
  void workersFollowTheirNode() throws Exception {
    int port = freePort();
    ProcessBuilder builder = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Djdk.net.hosts.file=" + System.getProperty("jdk.net.hosts.file"), "-Dvertx.disableDnsResolver=true",
        "-jar", System.getProperty("quarry.jar"), "--config", dir.resolve("absent.json").toString()))
        .redirectErrorStream(true);
    builder.environment().put("QUARRY_HTTP_PORT", String.valueOf(port));
    builder.environment().put("QUARRY_DATA_DIR", dir.resolve("data").toString());
    node = builder.start();
    awaitStarted(node);

    JsonObject health = WebClient.create(vertx).get(port, "127.0.0.1", "/api/health").send().await().bodyAsJsonObject();
    JsonArray workers = health.getJsonObject("local_workers").getJsonArray("workers");
    assertThat(workers).hasSize(2);
    List<ProcessHandle> children = workers.stream()
        .map(w -> ProcessHandle.of(((JsonObject) w).getLong("pid")).orElseThrow()).toList();
    for (ProcessHandle child : children) {
      assertThat(child.parent().map(ProcessHandle::pid)).hasValue(node.pid());
      assertThat(child.info().commandLine().orElse("")).contains("--roles worker");
    }
    assertThat(workers.getJsonObject(0).getLong("memory_cap_bytes")).isEqualTo(3072L << 20);

    node.destroyForcibly();
    for (ProcessHandle child : children) {
      child.onExit().get(60, TimeUnit.SECONDS);
      assertThat(child.isAlive()).isFalse();
    }
  }
}
