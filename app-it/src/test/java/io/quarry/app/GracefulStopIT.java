package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.ChatEvents;
import io.quarry.bus.LlmClient;
import io.quarry.testing.EventLog;
import io.quarry.testing.FakeGemini;
import io.quarry.testing.JarCommand;
import io.quarry.testing.JarNode;
import io.quarry.testing.ParquetFixtures;
import io.quarry.testing.ParquetServer;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The built jar stopped with SIGTERM while it writes an answer, as a rolling restart stops it. */
class GracefulStopIT {

  @TempDir
  Path dir;

  final Vertx vertx = Vertx.vertx();
  final FakeGemini gemini = FakeGemini.start(vertx);
  final ParquetServer files = ParquetServer.start(vertx);
  final EventLog events = new EventLog();
  final WebSocketClient sockets = vertx.createWebSocketClient();
  JarNode node;
  WebClient client;
  int port;

  @AfterEach
  void stop() throws Exception {
    if (node != null) {
      node.kill();
    }
    vertx.close().await();
    // The nodes' logs outlive the temporary directory, for whoever reads a failure.
    Path logs = Files.createDirectories(Path.of("target", "graceful-stop-logs"));
    try (var files = Files.list(dir)) {
      for (Path log : files.filter(f -> f.getFileName().toString().endsWith(".log")).toList()) {
        Files.copy(log, logs.resolve(log.getFileName()), StandardCopyOption.REPLACE_EXISTING);
      }
    }
  }

  @Test
  @DisplayName("SIGTERM: readiness answers 503 and new questions 503 'Quarry is restarting', the answer being written"
      + " finishes, then workers, cluster, HTTP and storage stop in that order")
  void drains() throws Exception {
    startWarm(Map.of());
    String conversation = conversation();
    gemini.next().text("There are ").gate("finish").text("100 people.").usage(50, 6);
    String messageId = ask(conversation, "How many people?").bodyAsJsonObject().getString("message_id");
    events.next(e -> ChatEvents.CHAT_TOKEN.equals(e.getString("type")));

    node.terminate();
    node.awaitLine("Draining:", 30);
    HttpResponse<Buffer> ready = client.get("/api/health/ready").send().await();
    assertThat(ready.statusCode()).isEqualTo(503);
    assertThat(ready.bodyAsJsonObject().getString("status")).isEqualTo("draining");
    assertThat(client.get("/api/health/live").send().await().statusCode()).isEqualTo(200);
    HttpResponse<Buffer> refused = ask(conversation(), "Another question?");
    assertThat(refused.statusCode()).isEqualTo(503);
    assertThat(refused.bodyAsJsonObject().getString("error")).isEqualTo(LlmClient.RESTARTING);

    gemini.release("finish");
    JsonObject complete = events.next(e -> ChatEvents.CHAT_COMPLETE.equals(e.getString("type")), 30);
    assertThat(complete.getString("message_id")).isEqualTo(messageId);
    node.awaitEnded(60);
    assertInOrder(node.lines(), "Answers ended (0 stopped", "Workers stopped", "Left the cluster", "HTTP closed",
        "Storage closed");

    start(Map.of());
    JsonObject answer = lastMessage(conversation);
    assertThat(answer.getString("status")).isEqualTo("complete");
    assertThat(answer.getString("content")).isEqualTo("There are 100 people.");
  }

  @Test
  @DisplayName("an answer still being written when shutdown.graceMs runs out stops there, kept as interrupted, and its"
      + " browser is told why")
  void graceRunsOut() throws Exception {
    startWarm(Map.of("QUARRY_SHUTDOWN_GRACE_MS", "1500"));
    String conversation = conversation();
    gemini.next().text("There are ").stall();
    String messageId = ask(conversation, "How many people?").bodyAsJsonObject().getString("message_id");
    events.next(e -> ChatEvents.CHAT_TOKEN.equals(e.getString("type")));

    node.terminate();
    JsonObject error = events.next(e -> ChatEvents.CHAT_ERROR.equals(e.getString("type")), 30);
    assertThat(error.getString("message_id")).isEqualTo(messageId);
    assertThat(error.getString("error")).isEqualTo("Quarry restarted before this answer was finished. What it had"
        + " written is kept; ask again to continue.");
    node.awaitEnded(60);
    assertThat(node.lines()).anyMatch(l -> l.contains("Answers ended (1 stopped at the end of the grace)"));

    start(Map.of());
    JsonObject answer = lastMessage(conversation);
    assertThat(answer.getString("status")).isEqualTo("interrupted");
    assertThat(answer.getString("content")).isEqualTo("There are ");
    assertThat(answer.getString("notice")).isEqualTo("This answer was interrupted when the server restarted.");
  }

  /** A node whose worker process is ready: what these tests stop is an answer, not a worker's start. */
  private void startWarm(Map<String, String> extra) throws Exception {
    Map<String, String> env = new HashMap<>(extra);
    env.put("QUARRY_LOCAL_WORKERS_KEEP_WARM", "1");
    start(env);
    node.awaitWorkerReady(120);
  }

  private void start(Map<String, String> extra) throws Exception {
    if (port == 0) {
      port = JarCommand.freePort();
      files.route("/people.parquet").content(ParquetFixtures.people(dir));
    }
    Map<String, String> env = new HashMap<>();
    env.put("QUARRY_HTTP_PORT", String.valueOf(port));
    env.put("QUARRY_DATA_DIR", dir.resolve("data").toString());
    env.put("GEMINI_API_KEY", "test-key");
    env.put("GEMINI_BASE_URL", gemini.baseUrl());
    env.put("QUARRY_LLM_RETRIES", "0");
    env.put("QUARRY_ALLOW_PRIVATE_NETWORKS", "true");
    // One worker process stops in its place among the others as two would, and starts in about half the time.
    env.put("QUARRY_LOCAL_WORKERS", "1");
    env.putAll(extra);
    node = JarNode.launch(dir.resolve("node-" + System.nanoTime() + ".log"), env, "--config",
        dir.resolve("absent.json").toString());
    node.awaitStarted(120);
    client = WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(port));
    WebSocket ws = sockets.connect(new WebSocketConnectOptions().setHost("127.0.0.1").setPort(port).setURI("/ws")
        .addHeader("Origin", "http://127.0.0.1:" + port)).await();
    ws.textMessageHandler(text -> events.add(new JsonObject(text)));
  }

  private String conversation() {
    String id = client.post("/api/conversations").sendJsonObject(new JsonObject()).await().bodyAsJsonObject()
        .getString("id");
    assertThat(client.post("/api/conversations/" + id + "/datasets").sendJsonObject(new JsonObject()
        .put("url", files.url("/people.parquet"))).await().statusCode()).isEqualTo(201);
    return id;
  }

  private HttpResponse<Buffer> ask(String conversation, String question) {
    return client.post("/api/conversations/" + conversation + "/messages")
        .sendJsonObject(new JsonObject().put("content", question)).await();
  }

  private JsonObject lastMessage(String conversation) {
    JsonArray messages = client.get("/api/conversations/" + conversation).send().await().bodyAsJsonObject()
        .getJsonArray("messages");
    return messages.getJsonObject(messages.size() - 1);
  }

  private static void assertInOrder(List<String> lines, String... steps) {
    int at = -1;
    for (String step : steps) {
      int found = -1;
      for (int i = at + 1; i < lines.size() && found < 0; i++) {
        if (lines.get(i).contains(step)) {
          found = i;
        }
      }
      assertThat(found).as("'%s' after the steps before it, in %s", step, lines).isGreaterThan(at);
      at = found;
    }
  }
}
