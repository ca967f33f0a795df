package io.quarry.chat;

import io.quarry.bus.QuarryException;
import io.quarry.bus.StorageClient;
import io.quarry.bus.StorageOps;
import io.quarry.bus.StorageOps.NewToken;
import io.quarry.bus.Timestamps;
import io.quarry.bus.TokenScope;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * {@code /api/tokens}: the account page's personal access tokens, the signed-in user's own (in local mode, the local
 * user's). Listed (never the token), made (the token answered this once: only its hash is kept) and revoked (every
 * door refuses it from its next request). A request made with a token gets none of this ({@link
 * RestScopes#sessionOnly}): a leaked token must not mint more, nor revoke its owner's others.
 */
final class TokenApi {

  private final StorageClient storage;

  TokenApi(StorageClient storage) {
    this.storage = storage;
  }

  void mount(Router router) {
    router.get("/api/tokens").handler(this::list);
    router.post("/api/tokens").handler(this::create);
    router.delete("/api/tokens/:id").handler(this::revoke);
    Routes.allowOnly(router, "/api/tokens", HttpMethod.GET, HttpMethod.POST);
    Routes.allowOnly(router, "/api/tokens/:id", HttpMethod.DELETE);
  }

  private void list(RoutingContext ctx) {
    String now = Timestamps.now();
    Replies.send(ctx, 200, storage.tokens(Auth.user(ctx).id()).map(tokens -> new JsonObject().put("tokens",
        new JsonArray(tokens.stream().map(token -> token.toJson(now)).toList()))));
  }

  /** {@code {name, scope, expires_in_days}} → 201 {@code {id, token, name, scope, expires_at}}. */
  private void create(RoutingContext ctx) {
    JsonObject body = Bodies.object(ctx);
    String given = Bodies.optionalString(body, "name", StorageOps.TOKEN_NAME_MAX);
    String name = given == null || given.isBlank() ? null : given.strip();
    String scope = Bodies.optionalString(body, "scope", 100);
    NewToken token = NewToken.of(Auth.user(ctx).id(), scope == null ? TokenScope.CHAT : scope(scope), name,
        NewToken.expiresIn(Bodies.optionalInt(body, "expires_in_days", 1, NewToken.MAX_DAYS)));
    Replies.send(ctx, 201, storage.createToken(token).map(made -> new JsonObject().put("id", made.id())
        .put("token", made.token()).put("name", name)
        .put("scope", token.scope().label()).put("expires_at", token.expiresAt())));
  }

  private static TokenScope scope(String label) {
    try {
      return TokenScope.of(label);
    } catch (IllegalArgumentException e) {
      throw QuarryException.badRequest("Field 'scope' must be read, query or chat");
    }
  }

  private void revoke(RoutingContext ctx) {
    storage.revokeToken(ctx.pathParam("id"), Auth.user(ctx).id())
        .onSuccess(v -> Replies.noContent(ctx))
        .onFailure(e -> HttpErrors.respond(ctx, e));
  }
}
