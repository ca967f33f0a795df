package io.quarry.chat;

import io.quarry.bus.Addresses;
import io.quarry.bus.ChatEvents;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code /ws}: relays the user's events ({@code chat.events.<userId>}) to the browser, whichever node
 * produced them. The upgrade needs the user's session and an {@code Origin} equal to this server's own.
 * A ping every {@code pingIntervalMs}; a socket that misses two pongs is closed.
 */
final class EventSocket {

  private static final Logger log = LoggerFactory.getLogger(EventSocket.class);

  private final Vertx vertx;
  private final long pingIntervalMs;

  EventSocket(Vertx vertx, long pingIntervalMs) {
    this.vertx = vertx;
    this.pingIntervalMs = pingIntervalMs;
  }

  void handle(RoutingContext ctx) {
    if (!Origins.same(ctx.request(), ctx.request().getHeader("Origin"))) {
      HttpErrors.send(ctx, 403, "WebSocket connections are accepted from this server's own pages only", null);
      return;
    }
    String userId = Auth.user(ctx).id();
    ctx.request().toWebSocket()
        .onSuccess(ws -> bridge(ws, userId))
        .onFailure(e -> log.debug("WebSocket upgrade failed: {}", e.getMessage()));
  }

  private void bridge(ServerWebSocket ws, String userId) {
    MessageConsumer<JsonObject> events = vertx.eventBus().consumer(Addresses.chatEvents(userId),
        message -> ws.writeTextMessage(message.body().encode()));
    long[] lastPong = {System.nanoTime()};
    long pinger = vertx.setPeriodic(pingIntervalMs, id -> {
      if (System.nanoTime() - lastPong[0] > 2_500_000L * pingIntervalMs) {
        ws.close((short) 1001, "No pong");
        return;
      }
      ws.writeTextMessage(new JsonObject().put("type", ChatEvents.PING).encode());
    });
    ws.textMessageHandler(text -> {
      if ("pong".equals(type(text))) {
        lastPong[0] = System.nanoTime();
      }
    });
    ws.closeHandler(v -> {
      vertx.cancelTimer(pinger);
      events.unregister();
    });
  }

  private static String type(String text) {
    try {
      return new JsonObject(text).getString("type");
    } catch (DecodeException | ClassCastException e) {
      return null;
    }
  }

}
