package io.quarry.chat;

import io.quarry.bus.ApiOps.CreateShare;
import io.quarry.bus.Shares;
import io.quarry.bus.Shares.Share;
import io.quarry.bus.Timestamps;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * {@code /api/shares}: the signed-in user's share links ({@link Sharing}, the core the bus's {@code api.share.*} share).
 * Made (the link's token answered this once: only its SHA-256 is kept), listed (never the token) and revoked (the link
 * is a 404 from then on).
 */
final class ShareApi {

  private final Sharing sharing;

  ShareApi(Sharing sharing) {
    this.sharing = sharing;
  }

  void mount(Router router) {
    router.get("/api/shares").handler(this::list);
    router.post("/api/shares").handler(this::create);
    router.delete("/api/shares/:id").handler(this::revoke);
    Routes.allowOnly(router, "/api/shares", HttpMethod.GET, HttpMethod.POST);
    Routes.allowOnly(router, "/api/shares/:id", HttpMethod.DELETE);
  }

  private void list(RoutingContext ctx) {
    String now = Timestamps.now();
    Replies.send(ctx, 200, sharing.list(Auth.user(ctx).id()).map(shares -> new JsonObject().put("shares",
        new JsonArray(shares.stream().map(share -> info(share, now)).toList()))));
  }

  /**
   * {@code {conversation_id, message_id?, audience?, display_name?, expires_in_days?}} or {@code {board_id, …}} → 201
   * {@code {id, url, token, …}}: the link of a conversation as it is now, of one answer, or of a board.
   */
  private void create(RoutingContext ctx) {
    JsonObject body = Bodies.object(ctx);
    Integer days = Bodies.optionalInt(body, "expires_in_days", 1, Shares.MAX_DAYS);
    CreateShare request = new CreateShare(Auth.user(ctx).id(), Bodies.optionalString(body, "conversation_id", 100),
        Bodies.optionalString(body, "message_id", 100), Bodies.optionalString(body, "board_id", 100),
        Bodies.optionalString(body, "audience", 20),
        Bodies.optionalString(body, "display_name", Shares.MAX_NAME), days == null ? null : String.valueOf(days));
    Replies.send(ctx, 201, sharing.create(request).map(made -> info(made.share(), Timestamps.now())
        .put("token", made.token()).put("url", made.url())));
  }

  private void revoke(RoutingContext ctx) {
    sharing.revoke(Auth.user(ctx).id(), ctx.pathParam("id"))
        .onSuccess(v -> Replies.noContent(ctx))
        .onFailure(e -> HttpErrors.respond(ctx, e));
  }

  /** What its sharer sees of a share: everything but the token, which is not kept. */
  private static JsonObject info(Share share, String now) {
    return new JsonObject().put("id", share.id()).put("kind", share.kind())
        .put("conversation_id", share.conversationId()).put("message_id", share.messageId())
        .put("board_id", share.boardId())
        .put("title", share.title()).put("audience", share.audience()).put("display_name", share.displayName())
        .put("created_at", share.createdAt()).put("expires_at", share.expiresAt())
        .put("revoked_at", share.revokedAt()).put("status", share.status(now));
  }
}
