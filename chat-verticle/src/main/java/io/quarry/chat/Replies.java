package io.quarry.chat;

import io.quarry.bus.UrlSecrets;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

/** Success responses, and the bridge from a future to a response. */
final class Replies {

  private Replies() {
  }

  /** Dataset URLs in any answer show their secrets as {@code [redacted]} (see {@link UrlSecrets#shownIn}). */
  static void json(RoutingContext ctx, int status, JsonObject body) {
    ctx.response().setStatusCode(status).putHeader("content-type", "application/json")
        .end(UrlSecrets.shownIn(body.encode()));
  }

  static void noContent(RoutingContext ctx) {
    ctx.response().setStatusCode(204).end();
  }

  static void send(RoutingContext ctx, int status, Future<JsonObject> body) {
    body.onSuccess(json -> json(ctx, status, json)).onFailure(e -> HttpErrors.respond(ctx, e));
  }
}
