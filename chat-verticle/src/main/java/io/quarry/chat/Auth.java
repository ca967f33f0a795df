package io.quarry.chat;

import io.quarry.bus.Failure;
import io.quarry.bus.QuarryException;
import io.quarry.bus.Sha256;
import io.quarry.bus.StorageOps.TokenUser;
import io.quarry.bus.TokenScope;
import io.quarry.bus.StorageClient;
import io.quarry.bus.User;
import io.vertx.core.Future;
import io.vertx.ext.web.RoutingContext;

/**
 * Authentication at the edge. {@code local}: one person on one machine, every request is the local user.
 * {@code password}: a session cookie names the user; without a live session the answer is 401. In either mode a
 * program's request may carry an API token instead ({@code Authorization: Bearer qt_…}, the bridge's tokens): it acts
 * for the token's user, needs no cookie, and is looked up at every request, so a revoked or expired token stops at
 * once (401 with the look-up's own reason). A
 * browser never sends one across sites (it would need a CORS preflight this server does not answer), so the
 * same-origin rules guard cookies alone.
 */
final class Auth {

  static final String LOCAL = "local";
  static final String PASSWORD = "password";
  private static final String USER_KEY = "quarry.user";
  private static final String SESSION_KEY = "quarry.session";
  private static final String TOKEN_KEY = "quarry.token";

  private final StorageClient storage;
  private final String mode;
  private Future<User> localUser;

  Auth(StorageClient storage, String mode) {
    this.storage = storage;
    this.mode = mode;
  }

  void handle(RoutingContext ctx) {
    userOf(ctx).onSuccess(user -> {
      ctx.put(USER_KEY, user);
      ctx.next();
    }).onFailure(e -> {
      if (bearer(ctx) != null && Failure.classify(e) == Failure.UNAUTHORIZED) {
        // The token's own refusal: unknown or revoked, or when it expired.
        HttpErrors.send(ctx, 401, e.getMessage(), null);
      } else if (Failure.classify(e) == Failure.NOT_FOUND || Failure.classify(e) == Failure.UNAUTHORIZED) {
        HttpErrors.send(ctx, 401, "Sign in first", null);
      } else {
        HttpErrors.respond(ctx, e);
      }
    });
  }

  /** The request's user, as {@link #handle} finds it, failing when it has none (a share link's own check). */
  Future<User> signedIn(RoutingContext ctx) {
    return userOf(ctx);
  }

  private Future<User> userOf(RoutingContext ctx) {
    String bearer = bearer(ctx);
    if (bearer != null) {
      return BridgeConnection.unknownRefused(storage.tokenUser(Sha256.hex(bearer)))
          .map(found -> {
            ctx.put(TOKEN_KEY, found);
            return found.user();
          });
    }
    if (LOCAL.equals(mode)) {
      return resolveLocal();
    }
    String token = Sessions.token(ctx);
    if (token == null) {
      return Future.failedFuture(new QuarryException(Failure.UNAUTHORIZED, "Sign in first"));
    }
    ctx.put(SESSION_KEY, Sessions.hash(token));
    return storage.sessionUser(Sessions.hash(token));
  }

  /** The token of {@code Authorization: Bearer <token>}, or null when the request carries none. */
  static String bearer(RoutingContext ctx) {
    String header = ctx.request().getHeader("Authorization");
    String scheme = "Bearer";
    if (header == null || !header.regionMatches(true, 0, scheme, 0, scheme.length())
        || header.length() > scheme.length() && !Character.isWhitespace(header.charAt(scheme.length()))) {
      return null;
    }
    // "Bearer " with nothing after it arrives as "Bearer": a token that is empty, refused as any unknown one.
    return header.substring(scheme.length()).strip();
  }

  /** Remembered once known; a failure (storage not up yet) is retried by the next request. */
  private Future<User> resolveLocal() {
    if (localUser == null || localUser.failed()) {
      localUser = storage.localUser();
    }
    return localUser;
  }

  /**
   * Handler after {@link #handle}: a request with an API token does only what its scope allows ({@link
   * RestScopes}); one with a session, anything its user may.
   */
  static void scoped(RoutingContext ctx) {
    TokenUser token = token(ctx);
    if (token == null) {
      ctx.next();
      return;
    }
    if (RestScopes.sessionOnly(ctx.normalizedPath())) {
      HttpErrors.send(ctx, 403, RestScopes.SESSION_ONLY, null);
      return;
    }
    TokenScope scope = token.scope();
    TokenScope needed = RestScopes.needed(ctx.request().method(), ctx.normalizedPath());
    if (!scope.allows(needed)) {
      HttpErrors.send(ctx, 403, scope.refusal(needed), null);
      return;
    }
    ctx.next();
  }

  /** The API token the request was made with, or null when it has a session (or is local mode's browser). */
  static TokenUser token(RoutingContext ctx) {
    return ctx.get(TOKEN_KEY);
  }

  static User user(RoutingContext ctx) {
    return ctx.get(USER_KEY);
  }

  /** The hash of the request's session token (password mode), or null. */
  static String session(RoutingContext ctx) {
    return ctx.get(SESSION_KEY);
  }
}
