package io.quarry.client;

import io.quarry.bus.ApiOps;
import io.quarry.bus.Bus;
import io.quarry.bus.StorageOps.Email;
import io.quarry.bus.User;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

/** Whom requests act for: every other facade takes a user's id. */
public final class Users {

  private final Bus bus;

  /** @param vertx joined to the cluster ({@link QuarryBus#join}) */
  public Users(Vertx vertx) {
    this.bus = new Bus(vertx);
  }

  /** The single user of a server in {@code auth.mode=local}; NOT_FOUND on one whose users sign in with passwords. */
  public Future<User> local() {
    return ApiOps.USER_LOCAL.call(bus, null);
  }

  /** A user by email; NOT_FOUND when there is none. */
  public Future<User> find(String email) {
    return ApiOps.USER_FIND.call(bus, new Email(email));
  }
}
