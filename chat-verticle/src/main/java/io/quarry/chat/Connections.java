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
 * What a client must do to keep a connection open: be one of at most {@code maxConnections}, and send a whole
 * request head within {@code headerTimeoutMs} of connecting or of its previous answer. Without the deadline a
 * slowloris client holds a connection forever by sending a header byte now and then, which an idle timeout
 * never sees. Confined to the verticle's event loop, like the server's handlers.
 */
final class Connections {

  /** A body left unread up to this size is read and dropped rather than costing the client its connection. */
  static final long DRAINED_BYTES = 64 * 1024;

  private final Vertx vertx;
  private final long headerTimeoutMs;
  private final int maxConnections;
  private final Map<HttpConnection, Long> deadlines = new HashMap<>();
  private int open;

  Connections(Vertx vertx, long headerTimeoutMs, int maxConnections) {
    this.vertx = vertx;
    this.headerTimeoutMs = headerTimeoutMs;
    this.maxConnections = maxConnections;
  }

  void accept(HttpConnection connection) {
    if (open >= maxConnections) {
      connection.close();
      return;
    }
    open++;
    connection.closeHandler(v -> {
      open--;
      disarm(connection);
    });
    arm(connection);
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
      ctx.addEndHandler(ended -> {
        if (!request.isEnded() && JsonBodies.carriesBody(request) && !small(request)) {
          connection.close();
          return;
        }
        if (!request.isEnded()) {
          request.handler(null).resume();
        }
        if (ended.succeeded()) {
          arm(connection);
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

  private void arm(HttpConnection connection) {
    disarm(connection);
    deadlines.put(connection, vertx.setTimer(headerTimeoutMs, id -> {
      deadlines.remove(connection);
      connection.close();
    }));
  }

  private void disarm(HttpConnection connection) {
    Long timer = deadlines.remove(connection);
    if (timer != null) {
      vertx.cancelTimer(timer);
    }
  }
}
