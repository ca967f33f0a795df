package io.quarry.chat;

import io.quarry.bus.UrlSecrets;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Metrics;
import io.quarry.bus.Addresses;
import io.quarry.bus.ChatEvents;
import io.quarry.bus.Failure;
import io.quarry.bus.SessionEnds;
import io.quarry.bus.Sha256;
import io.quarry.bus.StorageClient;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code /ws}: relays the user's events ({@code chat.events.<userId>}) to the browser, whichever node
 * produced them. The upgrade needs the user's session and an {@code Origin} equal to this server's own, or an API
 * token ({@code Authorization: Bearer}), looked up again at every ping.
 * A ping every {@code pingIntervalMs}; a socket that misses two pongs is closed. The browser only ever
 * sends small {@code pong} messages: anything else closes the socket. A socket lives no longer than its
 * session: signing out closes it at once (on every web node), and an expired session at the next ping.
 */
final class EventSocket {

  /** The largest frame or message the server reads from a browser: a pong is 15 bytes. */
  static final int MAX_INBOUND_BYTES = 256;
  static final short POLICY_VIOLATION = 1008;

  private static final Logger log = LoggerFactory.getLogger(EventSocket.class);

  private final Vertx vertx;
  private final StorageClient storage;
  private final long pingIntervalMs;
  private final Map<String, Set<ServerWebSocket>> bySession = new HashMap<>();
  /** WebSockets open on this verticle now ({@code quarry_websockets_open}). */
  private final AtomicInteger open = new AtomicInteger();
  private final Meter openGauge;

  EventSocket(Vertx vertx, StorageClient storage, long pingIntervalMs) {
    this.vertx = vertx;
    this.storage = storage;
    this.pingIntervalMs = pingIntervalMs;
    this.openGauge = Gauge.builder("quarry.websockets.open", open, AtomicInteger::get)
        .description("WebSockets open on this web node").register(Metrics.globalRegistry);
    SessionEnds.listen(vertx.eventBus(), this::sessionEnded);
  }

  /**
   * A browser's upgrade carries its cookie and must come from this server's pages. A program's carries an API token
   * ({@code Authorization: Bearer}, which no browser sends on a WebSocket, so no other site's page can): any scope
   * will do, as the socket only reads.
   */
  void handle(RoutingContext ctx) {
    String tokenHash = Auth.token(ctx) == null ? null : Sha256.hex(Auth.bearer(ctx));
    if (tokenHash == null && !Origins.same(ctx.request(), ctx.request().getHeader("Origin"))) {
      HttpErrors.send(ctx, 403, "WebSocket connections are accepted from this server's own pages only", null);
      return;
    }
    String userId = Auth.user(ctx).id();
    String session = Auth.session(ctx);
    ctx.request().toWebSocket()
        .onSuccess(ws -> bridge(ws, userId, session, tokenHash))
        .onFailure(e -> log.debug("WebSocket upgrade failed: {}", e.getMessage()));
  }

  private void bridge(ServerWebSocket ws, String userId, String session, String tokenHash) {
    MessageConsumer<JsonObject> events = vertx.eventBus().consumer(Addresses.chatEvents(userId),
        message -> ws.writeTextMessage(UrlSecrets.shownIn(message.body().encode())));
    open.incrementAndGet();
    long[] lastPong = {System.nanoTime()};
    long pinger = vertx.setPeriodic(pingIntervalMs, id -> ping(ws, session, tokenHash, lastPong[0]));
    ws.textMessageHandler(text -> {
      if ("pong".equals(type(text))) {
        lastPong[0] = System.nanoTime();
      } else {
        ws.close(POLICY_VIOLATION, "Only pong messages are accepted");
      }
    });
    ws.binaryMessageHandler(data -> ws.close(POLICY_VIOLATION, "Only pong messages are accepted"));
    if (session != null) {
      bySession.computeIfAbsent(session, s -> new HashSet<>()).add(ws);
    }
    ws.closeHandler(v -> {
      open.decrementAndGet();
      vertx.cancelTimer(pinger);
      events.unregister();
      forget(session, ws);
    });
  }

  /** The edge stopped: its gauge goes with it (another edge in this process may register its own). */
  void close() {
    Metrics.globalRegistry.remove(openGauge);
  }

  private void ping(ServerWebSocket ws, String session, String tokenHash, long lastPong) {
    if (System.nanoTime() - lastPong > 2_500_000L * pingIntervalMs) {
      ws.close((short) 1001, "No pong");
      return;
    }
    if (tokenHash != null) {
      // The same look-up as at the upgrade: a token revoked or expired since ends its socket at the next ping.
      BridgeConnection.unknownRefused(storage.tokenUser(tokenHash)).onFailure(e -> {
        if (Failure.classify(e) == Failure.UNAUTHORIZED) {
          ws.close(POLICY_VIOLATION, e.getMessage());
        }
      });
    }
    if (session != null) {
      storage.sessionUser(session).onFailure(e -> {
        if (Failure.classify(e) == Failure.NOT_FOUND) {
          ws.close(POLICY_VIOLATION, "Session ended");
        }
      });
    }
    ws.writeTextMessage(new JsonObject().put("type", ChatEvents.PING).encode());
  }

  private void sessionEnded(String session) {
    Set<ServerWebSocket> sockets = bySession.remove(session);
    if (sockets != null) {
      sockets.forEach(ws -> ws.close(POLICY_VIOLATION, "Signed out"));
    }
  }

  private void forget(String session, ServerWebSocket ws) {
    Set<ServerWebSocket> sockets = session == null ? null : bySession.get(session);
    if (sockets != null && sockets.remove(ws) && sockets.isEmpty()) {
      bySession.remove(session);
    }
  }

  private static String type(String text) {
    try {
      return new JsonObject(text).getString("type");
    } catch (DecodeException | ClassCastException e) {
      return null;
    }
  }
}
