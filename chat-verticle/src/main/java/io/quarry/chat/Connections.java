package io.quarry.chat;

import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import java.util.HashMap;
import java.util.Map;

/**
 * What a client must do to keep a connection open: send a whole request head within {@code headerTimeoutMs} of
 * connecting, and its next one within {@code keepAliveMs} of its previous answer (announced in {@code Keep-Alive:
 * timeout=}, and longer than the idle timeouts of the balancers in front). Without the first deadline a slowloris
 * client holds a connection forever by sending a header byte now and then, which an idle timeout never sees. At most
 * {@code maxConnections} are open: a new one past them takes the place of a connection waiting for its client's next
 * request head for over a second ({@link WaitingLine}), as a web server reuses idle keep-alive connections, so that a
 * flood of idle or slow connections never keeps a client out; only when every connection has a request under way, or
 * has just come, is it refused.
 * Confined to the verticle's event loop, like the server's handlers.
 */
final class Connections {

  /** A body left unread up to this size is read and dropped rather than costing the client its connection. */
  static final long DRAINED_BYTES = 64 * 1024;
  static final CharSequence KEEP_ALIVE = HttpHeaders.createOptimized("Keep-Alive");

  private final Vertx vertx;
  private final long headerTimeoutMs;
  private final long keepAliveMs;
  private final CharSequence keepAlive;
  private final int maxConnections;
  private final Map<HttpConnection, Long> deadlines = new HashMap<>();
  private final WaitingLine<HttpConnection> waiting = new WaitingLine<>();
  private int open;

  Connections(Vertx vertx, long headerTimeoutMs, long keepAliveMs, int maxConnections) {
    this.vertx = vertx;
    this.headerTimeoutMs = headerTimeoutMs;
    this.keepAliveMs = keepAliveMs;
    this.keepAlive = HttpHeaders.createOptimized("timeout=" + keepAliveMs / 1000);
    this.maxConnections = maxConnections;
  }

  void accept(HttpConnection connection) {
    if (open >= maxConnections) {
      HttpConnection idle = waiting.giveUp();
      if (idle == null) {
        connection.close();
        return;
      }
      disarm(idle);
      idle.close();
    }
    open++;
    connection.closeHandler(v -> {
      open--;
      disarm(connection);
    });
    arm(connection, headerTimeoutMs);
  }

  /** The server's request handler: a request head arrived, so its deadline is met. */
  Handler<HttpServerRequest> guard(Handler<HttpServerRequest> next) {
    return request -> {
      disarm(request.connection());
      next.handle(request);
    };
  }

  /**
   * First in the router: the next request's deadline starts when this one is answered (a WebSocket has
   * none). A request answered before its body was read (refused before sign-in, say) leaves that body on the
   * connection: a small one is read and dropped so the connection can go on, a big one ends it.
   */
  void track(RoutingContext ctx) {
    HttpServerRequest request = ctx.request();
    HttpConnection connection = request.connection();
    if (!request.headers().contains(HttpHeaders.UPGRADE, HttpHeaders.WEBSOCKET, true)) {
      ctx.response().putHeader(KEEP_ALIVE, keepAlive);
      ctx.addEndHandler(ended -> {
        if (!request.isEnded() && JsonBodies.carriesBody(request) && !small(request)) {
          connection.close();
          return;
        }
        if (!request.isEnded()) {
          request.handler(null).resume();
        }
        if (ended.succeeded()) {
          arm(connection, keepAliveMs);
        }
      });
    }
    ctx.next();
  }

  private static boolean small(HttpServerRequest request) {
    String length = request.getHeader(HttpHeaders.CONTENT_LENGTH);
    try {
      return length != null && Long.parseLong(length.strip()) <= DRAINED_BYTES;
    } catch (NumberFormatException e) {
      return false;
    }
  }

  private void arm(HttpConnection connection, long ms) {
    disarm(connection);
    waiting.add(connection, connection.remoteAddress() == null ? "" : connection.remoteAddress().hostAddress());
    deadlines.put(connection, vertx.setTimer(ms, id -> {
      deadlines.remove(connection);
      waiting.remove(connection);
      connection.close();
    }));
  }

  private void disarm(HttpConnection connection) {
    waiting.remove(connection);
    Long timer = deadlines.remove(connection);
    if (timer != null) {
      vertx.cancelTimer(timer);
    }
  }
}
