package io.quarry.app;

import static io.quarry.app.HttpAssertions.assertError;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.UpgradeRejectedException;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The edges of asking: limits, a running turn, a missing key, the socket's origin. */
class ChatEdgeCasesTest {

  @TempDir
  Path dir;

  ChatHarness chat;
  String conversation;

  @BeforeEach
  void start() {
    // Asking runs no SQL here: a node without worker processes (nor their private cluster) starts in a fraction of the
    // time (noKey's keyless node, whose SQL runner answers, keeps its workers).
    chat = new ChatHarness(dir, Map.of("QUARRY_LOCAL_WORKERS", "0"));
    conversation = chat.conversation();
  }

  @AfterEach
  void stop() {
    chat.close();
  }


  @Test
  @DisplayName("a message of exactly 10,000 characters is accepted; empty or 10,001 is a 400 naming the field")
  void messageLength() throws Exception {
    try (ChatHarness.Socket socket = chat.socket()) {
      chat.gemini.next().answer("Long read.");
      assertThat(chat.ask(conversation, "x".repeat(10_000)).statusCode()).isEqualTo(202);
      socket.untilTurnEnds();
    }
    assertError(chat.ask(conversation, "x".repeat(10_001)), 400, "Field 'content' must be at most 10,000 characters");
    assertError(chat.ask(conversation, "   "), 400, "Field 'content' is required");
    assertError(chat.send(HttpMethod.POST, "/api/conversations/" + conversation + "/messages", new JsonObject()), 400,
        "Field 'content' is required");
  }

  @Test
  @DisplayName("a second message while an answer is running gets 409; after stop, asking works again")
  void inProgress() throws Exception {
    try (ChatHarness.Socket socket = chat.socket()) {
      chat.gemini.next().text("Thinking").stall();
      chat.asked(conversation, "First");
      socket.next("chat_token");
      assertError(chat.ask(conversation, "Second"), 409, "Generation already in progress for this conversation");
      chat.send(HttpMethod.POST, "/api/conversations/" + conversation + "/stop", null);
      chat.gemini.next().answer("Now.");
      assertThat(chat.ask(conversation, "Third").statusCode()).isEqualTo(202);
      socket.next("chat_complete");
    }
    assertThat(chat.send(HttpMethod.POST, "/api/conversations/" + conversation + "/stop", null).bodyAsJsonObject()
        .getBoolean("stopped")).isFalse();
  }

  @Test
  @DisplayName("asking in an unknown conversation is a 404, and nothing reaches Gemini")
  void unknownConversation() {
    assertError(chat.ask("00000000-0000-0000-0000-000000000000", "Hi"), 404, "Conversation not found");
    assertThat(chat.gemini.requests()).isEmpty();
  }

  @Test
  @DisplayName("the WebSocket refuses a foreign Origin and a missing one")
  void origin() {
    WebSocketConnectOptions foreign = new WebSocketConnectOptions().setHost("127.0.0.1").setPort(chat.node.httpPort())
        .setURI("/ws").addHeader("Origin", "http://evil.example");
    // The client is held for the test: Vert.x closes one nothing references when the garbage collector finds it.
    WebSocketClient sockets = chat.node.vertx().createWebSocketClient();
    assertThatThrownBy(() -> sockets.connect(foreign).await())
        .isInstanceOf(UpgradeRejectedException.class).hasMessageContaining("403");
    WebSocketConnectOptions none = new WebSocketConnectOptions().setHost("127.0.0.1").setPort(chat.node.httpPort())
        .setURI("/ws").setAllowOriginHeader(false);
    assertThatThrownBy(() -> sockets.connect(none).await())
        .isInstanceOf(UpgradeRejectedException.class).hasMessageContaining("403");
  }

  @Test
  @DisplayName("without GEMINI_API_KEY the server runs, /api/me says chat is unavailable, and asking is a 503 naming the key")
  void noKey(@TempDir Path other) {
    Node keyless = TestNodes.start(other);
    try {
      WebClient client = WebClient.create(keyless.vertx());
      JsonObject me = client.get(keyless.httpPort(), "127.0.0.1", "/api/me").send().await().bodyAsJsonObject();
      assertThat(me.getBoolean("chat_available")).isFalse();
      assertThat(me.getString("chat_unavailable_reason")).contains("GEMINI_API_KEY");
      String id = client.post(keyless.httpPort(), "127.0.0.1", "/api/conversations").send().await().bodyAsJsonObject()
          .getString("id");
      HttpResponse<Buffer> ask = client.post(keyless.httpPort(), "127.0.0.1", "/api/conversations/" + id + "/messages")
          .sendJsonObject(new JsonObject().put("content", "Hi")).await();
      assertThat(ask.statusCode()).isEqualTo(503);
      assertThat(ask.bodyAsJsonObject().getString("error")).contains("GEMINI_API_KEY");
      HttpResponse<Buffer> query = client.post(keyless.httpPort(), "127.0.0.1", "/api/conversations/" + id + "/query")
          .sendJsonObject(new JsonObject().put("sql", "SELECT 1")).await();
      assertThat(query.statusCode()).isEqualTo(200);
    } finally {
      keyless.stop().await();
    }
    assertThat(chat.send(HttpMethod.GET, "/api/me", null).bodyAsJsonObject().getBoolean("chat_available")).isTrue();
  }

  @Test
  @DisplayName("with QUARRY_LLM_PROVIDER=openai and neither OPENAI_API_KEY nor OPENAI_BASE_URL, /api/me and /api/health"
      + " say what is missing, naming the provider")
  void openAiWithoutKey(@TempDir Path other) {
    Map<String, String> env = TestNodes.env(other);
    env.put("QUARRY_LLM_PROVIDER", "openai");
    // Nothing here runs SQL: no worker process is started for it.
    env.put("QUARRY_LOCAL_WORKERS_KEEP_WARM", "0");
    Node keyless = TestNodes.start(env, other);
    try {
      WebClient client = WebClient.create(keyless.vertx());
      JsonObject me = client.get(keyless.httpPort(), "127.0.0.1", "/api/me").send().await().bodyAsJsonObject();
      assertThat(me.getBoolean("chat_available")).isFalse();
      assertThat(me.getString("chat_unavailable_reason")).isEqualTo("Chat needs OPENAI_API_KEY (or OPENAI_BASE_URL for"
          + " a model server of your own) in the server's environment (QUARRY_LLM_PROVIDER=openai)");
      JsonObject health = client.get(keyless.httpPort(), "127.0.0.1", "/api/health").send().await().bodyAsJsonObject();
      assertThat(health.getJsonObject("chat").getString("provider")).isEqualTo("openai");
      assertThat(health.getJsonObject("chat").getString("reason")).isEqualTo(me.getString("chat_unavailable_reason"));
    } finally {
      keyless.stop().await();
    }
  }
}
