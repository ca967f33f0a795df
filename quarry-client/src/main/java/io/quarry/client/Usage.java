package io.quarry.client;

import io.quarry.bus.ApiOps;
import io.quarry.bus.Bus;
import io.quarry.bus.LlmOps.Budget;
import io.quarry.bus.Scopes.UserRef;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

/** A user's model tokens over the rolling 24 hours, against their daily limit. */
public final class Usage {

  private final Bus bus;

  /** @param vertx joined to the cluster ({@link QuarryBus#join}) */
  public Usage(Vertx vertx) {
    this.bus = new Bus(vertx);
  }

  public Future<Budget> get(String userId) {
    return ApiOps.USAGE_GET.call(bus, new UserRef(userId));
  }
}
