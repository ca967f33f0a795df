package io.quarry.bus;

import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import java.util.function.Consumer;

/**
 * A session that ended (its user signed out) on {@link Addresses#CHAT_SESSION_ENDED}: published by the web node where
 * it ended, heard by every web node, which closes the WebSockets opened under it. Named by its token's hash.
 */
public final class SessionEnds {

  private SessionEnds() {
  }

  public static void publish(EventBus bus, String tokenHash) {
    bus.publish(Addresses.CHAT_SESSION_ENDED, new JsonObject().put(Keys.TOKEN_HASH, tokenHash));
  }

  /** {@code ended} hears the token hash of each session that ends anywhere in the cluster. */
  public static MessageConsumer<JsonObject> listen(EventBus bus, Consumer<String> ended) {
    return bus.consumer(Addresses.CHAT_SESSION_ENDED, message -> ended.accept(message.body().getString(Keys.TOKEN_HASH)));
  }
}
