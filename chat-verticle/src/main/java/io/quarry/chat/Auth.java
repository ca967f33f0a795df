package io.quarry.chat;

import io.quarry.bus.StorageClient;
import io.quarry.bus.User;
import io.vertx.core.Future;
import io.vertx.ext.web.RoutingContext;

/**
 * Authentication at the edge. In {@code auth.mode=local} there is one person on one machine, so every
 * request is the local user, created by storage on first use.
 */
final class Auth {

  static final String LOCAL = "local";
  private static final String USER_KEY = "quarry.user";

  private final StorageClient storage;
  private Future<User> localUser;

  Auth(StorageClient storage) {
    this.storage = storage;
  }

  void handle(RoutingContext ctx) {
    resolveLocal().onSuccess(user -> {
      ctx.put(USER_KEY, user);
      ctx.next();
    }).onFailure(e -> HttpErrors.respond(ctx, e));
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
}
