package io.quarry.bus;

import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.MessageConsumer;

/**
 * A node has started every role it runs ({@link Addresses#NODE_STARTED}), told inside its process only: the moment for
 * work that must not hold its start up, such as warming a model's SDK.
 */
public final class NodeStarts {

  private NodeStarts() {
  }

  public static void publish(EventBus bus) {
    bus.publish(Addresses.NODE_STARTED, null, new DeliveryOptions().setLocalOnly(true));
  }

  /** {@code started} runs when this node has started. */
  public static MessageConsumer<Object> listen(EventBus bus, Runnable started) {
    return bus.localConsumer(Addresses.NODE_STARTED, message -> started.run());
  }
}
