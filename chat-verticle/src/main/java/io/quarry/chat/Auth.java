package io.quarry.chat;

import io.quarry.bus.Failure;
import io.quarry.bus.StorageClient;
import io.quarry.bus.User;
import io.vertx.core.Future;
import io.vertx.ext.web.RoutingContext;

/**
 * Authentication at the edge. {@code local}: one person on one machine, every request is the local user.
 * {@code password}: a session cookie names the user; without a live session the answer is 401.
 */
final class Auth {

  static final String LOCAL = "local";
  static final String PASSWORD = "password";
  private static final String USER_KEY = "quarry.user";
  private static final String SESSION_KEY = "quarry.session";

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
      if (Failure.classify(e) == Failure.NOT_FOUND || Failure.classify(e) == Failure.UNAUTHORIZED) {
        HttpErrors.send(ctx, 401, "Sign in first", null);
      } else {
        HttpErrors.respond(ctx, e);
      }
    });
  }

  private Future<User> userOf(RoutingContext ctx) {
    if (LOCAL.equals(mode)) {
      return resolveLocal();
    }
    String token = Sessions.token(ctx);
    if (token == null) {
      return Future.failedFuture(new io.quarry.bus.QuarryException(Failure.UNAUTHORIZED, "Sign in first"));
    }
    ctx.put(SESSION_KEY, Sessions.hash(token));
    return storage.sessionUser(Sessions.hash(token));
  }

  /** Remembered once known; a failure (storage not up yet) is retried by the next request. */
  private Future<User> resolveLocal() {
    if (localUser == null || localUser.failed()) {
      localUser = storage.localUser();
    }
    return localUser;
  }

  static User user(RoutingContext ctx) {
    return ctx.get(USER_KEY);
  }

  /** The hash of the request's session token (password mode), or null. */
  static String session(RoutingContext ctx) {
    return ctx.get(SESSION_KEY);
  }
}
