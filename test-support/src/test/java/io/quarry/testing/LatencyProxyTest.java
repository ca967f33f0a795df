package io.quarry.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetSocket;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class LatencyProxyTest {

  private static final int WRITES = 2_000;

  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void close() {
    vertx.close().await();
  }

  @Test
  @DisplayName("what goes through the proxy comes back whole and in order, however it was cut, and a close reaches the"
      + " other side")
  void wholeAndInOrder() throws Exception {
    Promise<Void> targetClosed = Promise.promise();
    NetServer echo = vertx.createNetServer().connectHandler(socket -> {
      socket.handler(socket::write);
      socket.closeHandler(targetClosed::tryComplete);
    }).listen(0, "127.0.0.1").await();
    LatencyProxy proxy = LatencyProxy.start(vertx, echo.actualPort(), 5);

    Buffer sent = Buffer.buffer();
    for (int i = 0; i < WRITES; i++) {
      sent.appendString(i + ",");
    }
    Buffer received = Buffer.buffer();
    Promise<Void> all = Promise.promise();
    NetSocket client = vertx.createNetClient().connect(proxy.port(), "127.0.0.1").await();
    client.handler(bytes -> {
      received.appendBuffer(bytes);
      if (received.length() >= sent.length()) {
        all.tryComplete();
      }
    });
    for (int i = 0; i < WRITES; i++) {
      client.write(i + ",");
    }
    all.future().toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
    assertThat(received.toString()).isEqualTo(sent.toString());

    client.close().await();
    targetClosed.future().toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
    proxy.close().await();
  }
}
