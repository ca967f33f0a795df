package io.quarry.chat;

import io.quarry.bus.QuarryException;
import io.quarry.bus.Sha256;
import io.quarry.bus.Shares;
import io.quarry.bus.Shares.NewShare;
import io.quarry.bus.Shares.Share;
import io.quarry.bus.StorageClient;
import io.quarry.bus.Timestamps;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.UUID;

/**
 * {@code /api/shares}: the signed-in user's share links. Made (the link's token answered this once: only its SHA-256 is
 * kept), listed (never the token) and revoked (the link is a 404 from then on). Who may open a link is its sharer's
 * choice within the operator's ceiling, {@code share.audience}: {@code anyone} who has the link, signed-in
 * {@code users} of this Quarry, or {@code off} (no sharing).
 */
final class ShareApi {

  /** 256 random bits: nothing to guess, and nothing to learn from a fast unsalted hash of it. */
  private static final int TOKEN_BYTES = 32;
  private static final SecureRandom RANDOM = new SecureRandom();

  private final StorageClient storage;
  private final String ceiling;

  ShareApi(StorageClient storage, String ceiling) {
    this.storage = storage;
    this.ceiling = ceiling;
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
    Replies.send(ctx, 200, storage.shares(Auth.user(ctx).id()).map(shares -> new JsonObject().put("shares",
        new JsonArray(shares.stream().map(share -> info(share, now)).toList()))));
  }

  /**
   * {@code {conversation_id, message_id?, audience?, display_name?, expires_in_days?}} → 201 {@code {id, url, token,
   * …}}: the link of a conversation as it is now, or of one answer.
   */
  private void create(RoutingContext ctx) {
    if (Shares.OFF.equals(ceiling)) {
      HttpErrors.send(ctx, 403, "Sharing is turned off on this Quarry (share.audience=off)", null);
      return;
    }
    JsonObject body = Bodies.object(ctx);
    String conversationId = Bodies.requiredString(body, "conversation_id", 100);
    String messageId = Bodies.optionalString(body, "message_id", 100);
    String audience = audience(Bodies.optionalString(body, "audience", 20));
    String name = Bodies.optionalString(body, "display_name", Shares.MAX_NAME);
    String expiresAt = Shares.expiresIn(Bodies.optionalInt(body, "expires_in_days", 1, Shares.MAX_DAYS));
    String token = newToken();
    NewShare share = new NewShare(UUID.randomUUID().toString(), Auth.user(ctx).id(),
        messageId == null ? Shares.CONVERSATION : Shares.MESSAGE, conversationId, messageId, audience,
        name == null || name.isBlank() ? Shares.DEFAULT_NAME : name.strip(), expiresAt, Sha256.hex(token));
    Replies.send(ctx, 201, storage.createShare(share).map(made -> info(made, Timestamps.now())
        .put("token", token).put("url", url(token))));
  }

  /** Within the ceiling: asking for more than the operator allows is refused, saying what is allowed. */
  private String audience(String asked) {
    String audience = asked == null ? Shares.USERS : asked;
    if (!Shares.AUDIENCES.contains(audience)) {
      throw QuarryException.badRequest("Field 'audience' must be users or anyone");
    }
    if (Shares.ANYONE.equals(audience) && Shares.USERS.equals(ceiling)) {
      throw QuarryException.badRequest("This Quarry lets links open only for its signed-in users"
          + " (share.audience=users): choose the audience 'users'");
    }
    return audience;
  }

  private void revoke(RoutingContext ctx) {
    storage.revokeShare(Auth.user(ctx).id(), ctx.pathParam("id"))
        .onSuccess(v -> Replies.noContent(ctx))
        .onFailure(e -> HttpErrors.respond(ctx, e));
  }

  static String newToken() {
    byte[] bytes = new byte[TOKEN_BYTES];
    RANDOM.nextBytes(bytes);
    return Shares.TOKEN_PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  static String url(String token) {
    return "/s/" + token;
  }

  /** What its sharer sees of a share: everything but the token, which is not kept. */
  private static JsonObject info(Share share, String now) {
    return new JsonObject().put("id", share.id()).put("kind", share.kind())
        .put("conversation_id", share.conversationId()).put("message_id", share.messageId())
        .put("title", share.title()).put("audience", share.audience()).put("display_name", share.displayName())
        .put("created_at", share.createdAt()).put("expires_at", share.expiresAt())
        .put("revoked_at", share.revokedAt()).put("status", share.status(now));
  }
}
