package io.quarry.testing;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetSocket;

/**
 * A far link on loopback: a TCP proxy that holds every byte for the same time each way before passing it on, so that
 * a connection through it has the round trip of a distant origin in everything it carries — TLS handshakes, requests,
 * and the flow-control credits (HTTP/2's WINDOW_UPDATE) that pace a download, which an origin that only answers late
 * does not delay. Bytes are passed on in the order they came; it forwards to a port on 127.0.0.1 only. A side that
 * reads slowly slows the other: while what the proxy writes to it waits in a full queue, the proxy reads nothing more
 * from the other side, whose own writes then wait, as over a real link.
 */
public final class LatencyProxy {

  private final Vertx vertx;
  private final long oneWayMs;
  private final int target;
  private final NetClient client;
  private NetServer server;

  private LatencyProxy(Vertx vertx, int target, long oneWayMs) {
    this.vertx = vertx;
    this.target = target;
    this.oneWayMs = oneWayMs;
    this.client = vertx.createNetClient();
  }

  /** Listens on a free port of 127.0.0.1 (blocks until it does); a round trip through it takes {@code 2 × oneWayMs}. */
  public static LatencyProxy start(Vertx vertx, int targetPort, long oneWayMs) {
    LatencyProxy proxy = new LatencyProxy(vertx, targetPort, oneWayMs);
    proxy.server = vertx.createNetServer().connectHandler(proxy::accept).listen(0, "127.0.0.1").await();
    return proxy;
  }

  public int port() {
    return server.actualPort();
  }

  private void accept(NetSocket near) {
    near.pause();
    client.connect(target, "127.0.0.1").onComplete(connected -> {
      if (connected.failed()) {
        near.close();
        return;
      }
      NetSocket far = connected.result();
      relay(near, far);
      relay(far, near);
      near.resume();
    });
  }

  /**
   * What {@code from} sends reaches {@code to} {@link #oneWayMs} later, its close (or reset) too; {@code from} is paused
   * while {@code to}'s write queue is full.
   */
  private void relay(NetSocket from, NetSocket to) {
    to.drainHandler(v -> from.resume());
    from.handler(bytes -> later(() -> {
      to.write(bytes);
      if (to.writeQueueFull()) {
        from.pause();
      }
    }));
    from.exceptionHandler(e -> later(to::close));
    from.closeHandler(v -> later(to::close));
  }

  /** Timers of the same delay fire in the order they were set: the bytes keep theirs. */
  private void later(Runnable action) {
    if (oneWayMs <= 0) {
      action.run();
    } else {
      vertx.setTimer(oneWayMs, id -> action.run());
    }
  }

  public Future<Void> close() {
    return server.close().compose(v -> client.close());
  }
}
