package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.Checkpoint;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The socket's keep-alive: a ping every interval; a socket that never answers with pong is closed. */
@ExtendWith(VertxExtension.class)
class SocketPingTest {

  @TempDir
  Path dir;

  @Test
  @DisplayName("a socket answering pong keeps receiving pings; one that never answers is closed")
  void pingPong(VertxTestContext testContext) throws Exception {
    Node node = TestNodes.start(Map.of("QUARRY_HTTP_PORT", "0", "QUARRY_DATA_DIR", dir.toString(),
        "QUARRY_CHAT_PING_INTERVAL_MS", "200", "QUARRY_LOCAL_WORKERS", "0"), dir);
    WebSocketClient client = node.vertx().createWebSocketClient();
    try {
      WebSocketConnectOptions options = new WebSocketConnectOptions().setHost("127.0.0.1").setPort(node.httpPort())
          .setURI("/ws").addHeader("Origin", "http://127.0.0.1:" + node.httpPort());
      WebSocket polite = client.connect(options).await();
      // Lax: pings go on coming after the sixth.
      Checkpoint pings = testContext.laxCheckpoint(6);
      polite.textMessageHandler(text -> {
        if ("ping".equals(new JsonObject(text).getString("type"))) {
          polite.writeTextMessage(new JsonObject().put("type", "pong").encode());
          pings.flag();
        }
      });
      WebSocket silent = client.connect(options).await();
      Checkpoint closed = testContext.checkpoint();
      silent.closeHandler(v -> testContext.verify(() -> {
        assertThat(silent.closeStatusCode()).isEqualTo((short) 1001);
        closed.flag();
      }));
      assertThat(testContext.awaitCompletion(10, TimeUnit.SECONDS)).as("six pings, and the silent socket closed").isTrue();
      assertThat(polite.isClosed()).isFalse();
    } finally {
      node.stop().await();
    }
  }
}
