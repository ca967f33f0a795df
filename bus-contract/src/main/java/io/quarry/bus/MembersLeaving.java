package io.quarry.bus;

import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import java.util.function.Consumer;

/**
 * Another member leaving the cluster, gracefully or not, told inside a node's process only
 * ({@link Addresses#CLUSTER_MEMBER_LEFT}): named by the {@link NodeInfo#id()} of the node that left.
 */
public final class MembersLeaving {

  private MembersLeaving() {
  }

  public static void publish(EventBus bus, String nodeId) {
    bus.publish(Addresses.CLUSTER_MEMBER_LEFT, new JsonObject().put(Keys.NODE_ID, nodeId),
        new DeliveryOptions().setLocalOnly(true));
  }

  /** {@code left} hears the id of each node that leaves. */
  public static MessageConsumer<JsonObject> listen(EventBus bus, Consumer<String> left) {
    return bus.localConsumer(Addresses.CLUSTER_MEMBER_LEFT, message -> left.accept(message.body().getString(Keys.NODE_ID)));
  }
}
