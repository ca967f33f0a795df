package io.quarry.chat;

import io.quarry.bus.LogContext;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * Every request gets an id, answered in {@code X-Request-Id} and carried by its log lines (and those of the nodes its
 * messages reach, see {@link LogContext}); a request about a conversation carries the conversation's id too.
 */
final class RequestIds {

  static final String HEADER = "X-Request-Id";
  private static final SecureRandom RANDOM = new SecureRandom();

  private RequestIds() {
  }

  static void mount(Router router) {
    router.route().handler(RequestIds::tag);
    router.route("/api/conversations/:id").handler(RequestIds::conversation);
    router.route("/api/conversations/:id/*").handler(RequestIds::conversation);
  }

  private static void tag(RoutingContext ctx) {
    byte[] bytes = new byte[8];
    RANDOM.nextBytes(bytes);
    String id = HexFormat.of().formatHex(bytes);
    LogContext.put(LogContext.REQUEST_ID, id);
    ctx.response().putHeader(HEADER, id);
    ctx.next();
  }

  private static void conversation(RoutingContext ctx) {
    LogContext.put(LogContext.CONVERSATION_ID, ctx.pathParam("id"));
    ctx.next();
  }
}
