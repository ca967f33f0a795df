package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.ChatEvents;
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
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A whole run of the jar logging everything (QUARRY_LOG_LEVEL=TRACE) as JSON lines: an invite, a sign-up, a failed
 * and a good sign-in, a question to Gemini, a sign-out. Its output is read for every secret it handled.
 */
class LogSecretsIT {

  @TempDir
  Path dir;

  final Vertx vertx = Vertx.vertx();
  final FakeGemini gemini = FakeGemini.start(vertx);
  final ParquetServer files = ParquetServer.start(vertx);
  JarNode node;
  /** Held for the test: Vert.x closes a client nothing references (and its sockets) when it is collected. */
  final WebSocketClient sockets = vertx.createWebSocketClient();

  @AfterEach
  void stop() {
    if (node != null) {
      node.kill();
    }
    vertx.close().await();
  }

  @Test
  @DisplayName("no log line, at any level, holds the Gemini key, a password, a session token or an invite; every line"
      + " is JSON and a question's lines carry its conversation, answer, request and node")
  void noSecrets() throws Exception {
    String geminiKey = "gk-" + UUID.randomUUID();
    String password = "Pw-" + UUID.randomUUID();
    String wrongPassword = "Wrong-" + UUID.randomUUID();
    files.route("/people.parquet").content(ParquetFixtures.people(dir));
    Map<String, String> env = new HashMap<>();
    env.put("QUARRY_DATA_DIR", dir.resolve("data").toString());
    env.put("QUARRY_AUTH_MODE", "password");
    env.put("QUARRY_LOG_FORMAT", "json");
    env.put("QUARRY_LOG_LEVEL", "TRACE");
    env.put("GEMINI_API_KEY", geminiKey);
    env.put("GEMINI_BASE_URL", gemini.baseUrl());
    env.put("QUARRY_ALLOW_PRIVATE_NETWORKS", "true");
    // A worker process's log is read as the node's is: one of them shows what two would.
    env.put("QUARRY_LOCAL_WORKERS", "1");
    String invite = JarCommand.invite(env, dir.resolve("absent.json"));
    int port = JarCommand.freePort();
    env.put("QUARRY_HTTP_PORT", String.valueOf(port));
    node = JarNode.launch(dir.resolve("node.log"), env, "--config", dir.resolve("absent.json").toString());
    node.awaitStarted(120);

    WebClient client = WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(port));
    HttpResponse<Buffer> signedUp = client.post("/api/auth/signup").putHeader("Origin", "http://127.0.0.1:" + port)
        .sendJsonObject(new JsonObject().put("email", "ada@example.com").put("password", password)
            .put("invite", invite)).await();
    assertThat(signedUp.statusCode()).as(signedUp.bodyAsString()).isEqualTo(201);
    assertThat(signIn(client, port, wrongPassword).statusCode()).isEqualTo(401);
    HttpResponse<Buffer> signedIn = signIn(client, port, password);
    String cookie = signedIn.cookies().stream().filter(c -> c.startsWith("quarry_session=")).findFirst().orElseThrow()
        .split(";")[0];
    String token = cookie.substring(cookie.indexOf('=') + 1);

    EventLog events = new EventLog();
    WebSocket ws = sockets.connect(new WebSocketConnectOptions().setHost("127.0.0.1")
        .setPort(port).setURI("/ws").addHeader("Origin", "http://127.0.0.1:" + port).addHeader("Cookie", cookie))
        .await();
    ws.textMessageHandler(text -> events.add(new JsonObject(text)));
    String conversation = client.post("/api/conversations").putHeader("Cookie", cookie)
        .putHeader("Origin", "http://127.0.0.1:" + port).sendJsonObject(new JsonObject()).await().bodyAsJsonObject()
        .getString("id");
    gemini.next().call("execute_sql", new JsonObject().put("query", "SELECT 42 AS answer")).usage(10, 2);
    gemini.next().answer("It is 42.");
    HttpResponse<Buffer> asked = client.post("/api/conversations/" + conversation + "/messages")
        .putHeader("Cookie", cookie).putHeader("Origin", "http://127.0.0.1:" + port)
        .sendJsonObject(new JsonObject().put("content", "What is the answer?")).await();
    String messageId = asked.bodyAsJsonObject().getString("message_id");
    events.next(e -> ChatEvents.CHAT_COMPLETE.equals(e.getString("type")), 30);
    assertThat(client.post("/api/auth/signout").putHeader("Cookie", cookie)
        .putHeader("Origin", "http://127.0.0.1:" + port).send().await().statusCode()).isLessThan(300);
    node.terminate();
    node.awaitEnded(60);

    List<String> lines = node.lines();
    for (String secret : List.of(geminiKey, password, wrongPassword, token, invite)) {
      assertThat(lines).as("lines holding a secret").noneMatch(line -> line.contains(secret));
    }
    assertThat(lines).as("lines that are not JSON").allMatch(LogSecretsIT::json);
    List<JsonObject> ofTheAnswer = lines.stream().map(JsonObject::new)
        .filter(l -> messageId.equals(l.getString("message_id"))).toList();
    assertThat(ofTheAnswer).as("lines about the answer").isNotEmpty()
        .allMatch(l -> conversation.equals(l.getString("conversation_id")) && l.getString("node_id") != null);
    assertThat(lines.stream().map(JsonObject::new))
        .anyMatch(l -> l.getString("request_id") != null && conversation.equals(l.getString("conversation_id")))
        .anyMatch(l -> l.getString("worker") != null);
  }

  private static HttpResponse<Buffer> signIn(WebClient client, int port, String password) {
    return client.post("/api/auth/signin").putHeader("Origin", "http://127.0.0.1:" + port)
        .sendJsonObject(new JsonObject().put("email", "ada@example.com").put("password", password)).await();
  }



  private static boolean json(String line) {
    try {
      new JsonObject(line);
      return true;
    } catch (RuntimeException e) {
      return false;
    }
  }
}
