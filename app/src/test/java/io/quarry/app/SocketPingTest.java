package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Promise;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The socket's keep-alive: a ping every interval; a socket that never answers with pong is closed. */
class SocketPingTest {

  @TempDir
  Path dir;

  @Test
  @DisplayName("a socket answering pong keeps receiving pings; one that never answers is closed")
  void pingPong() throws Exception {
    Node node = TestNodes.start(Map.of("QUARRY_HTTP_PORT", "0", "QUARRY_DATA_DIR", dir.toString(),
        "QUARRY_CHAT_PING_INTERVAL_MS", "200"), dir);
    WebSocketClient client = node.vertx().createWebSocketClient();
    try {
      WebSocketConnectOptions options = new WebSocketConnectOptions().setHost("127.0.0.1").setPort(node.httpPort())
          .setURI("/ws").addHeader("Origin", "http://127.0.0.1:" + node.httpPort());
      WebSocket polite = client.connect(options).await();
      CountDownLatch pings = new CountDownLatch(6);
      polite.textMessageHandler(text -> {
        if ("ping".equals(new JsonObject(text).getString("type"))) {
          polite.writeTextMessage(new JsonObject().put("type", "pong").encode());
          pings.countDown();
        }
      });
      WebSocket silent = client.connect(options).await();
      Promise<Short> closed = Promise.promise();
      silent.closeHandler(v -> closed.tryComplete(silent.closeStatusCode()));
      assertThat(closed.future().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS)).isEqualTo((short) 1001);
      assertThat(pings.await(10, TimeUnit.SECONDS)).isTrue();
      assertThat(polite.isClosed()).isFalse();
    } finally {
      node.stop().await();
    }
  }
}
