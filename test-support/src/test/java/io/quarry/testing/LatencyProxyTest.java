package io.quarry.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Context;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetSocket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class LatencyProxyTest {

  private static final int WRITES = 2_000;
  /** Far more than the sockets' kernel buffers and the proxy's queues hold together. */
  private static final long UNHELD = 256L << 20;

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

  @Test
  @DisplayName("a side that reads nothing holds the other side's writes: the proxy stops reading while what it wrote"
      + " waits, and once the reader reads again everything arrives whole")
  void slowReaderHoldsTheWriter() throws Exception {
    AtomicLong arrived = new AtomicLong();
    // What the writer wrote, once it is held (it writes no more then); everything has arrived when the target has that.
    AtomicLong expected = new AtomicLong(Long.MAX_VALUE);
    CompletableFuture<Void> whole = new CompletableFuture<>();
    Promise<NetSocket> reader = Promise.promise();
    NetServer slow = vertx.createNetServer().connectHandler(socket -> {
      socket.pause();
      socket.handler(bytes -> {
        if (arrived.addAndGet(bytes.length()) >= expected.get()) {
          whole.complete(null);
        }
      });
      reader.complete(socket);
    }).listen(0, "127.0.0.1").await();
    LatencyProxy proxy = LatencyProxy.start(vertx, slow.actualPort(), 2);

    Writer writer = new Writer(vertx.getOrCreateContext(), proxy.port());
    long held = writer.held.get(60, TimeUnit.SECONDS);
    assertThat(held).as("bytes written before the writer was held").isPositive().isLessThan(UNHELD);

    writer.stop();
    expected.set(held);
    reader.future().await().resume();
    whole.get(60, TimeUnit.SECONDS);
    assertThat(arrived.get()).isEqualTo(writer.written.get()).isEqualTo(held);
    proxy.close().await();
  }

  /**
   * Writes as fast as its socket takes, on its own context, until the socket's queue stays full for a second (then
   * {@link #held} completes with what it wrote) or it wrote {@link #UNHELD} (then it fails).
   */
  private final class Writer {
    final CompletableFuture<Long> held = new CompletableFuture<>();
    final AtomicLong written = new AtomicLong();
    private final Buffer chunk = Buffer.buffer(new byte[64 * 1024]);
    private NetSocket socket;
    private long lastSeen = -1;
    private int still;
    private long watch;

    Writer(Context context, int port) {
      context.runOnContext(v -> vertx.createNetClient().connect(port, "127.0.0.1").onSuccess(s -> {
        socket = s;
        socket.drainHandler(d -> pump());
        watch = vertx.setPeriodic(200, id -> watch());
        pump();
      }).onFailure(held::completeExceptionally));
    }

    private void pump() {
      while (!held.isDone() && !socket.writeQueueFull()) {
        if (written.get() >= UNHELD) {
          held.completeExceptionally(new AssertionError("wrote " + written.get() + " bytes and was never held"));
          return;
        }
        socket.write(chunk);
        written.addAndGet(chunk.length());
      }
    }

    private void watch() {
      long now = written.get();
      still = now == lastSeen ? still + 1 : 0;
      lastSeen = now;
      if (still >= 5) {
        held.complete(now);
      }
    }

    void stop() {
      vertx.cancelTimer(watch);
    }
  }
}
