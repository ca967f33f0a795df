package io.quarry.bus;

import io.vertx.core.eventbus.EventBus;
import io.vertx.core.json.JsonObject;

/** Stopping the queries sent with a stop key ({@link Addresses#QUERIES_STOP}), wherever they run. */
public final class QueryStops {

  /** What a stopped query fails with (the caller that stopped it no longer waits for it). */
  public static final String STOPPED = "The query was stopped";

  private QueryStops() {
  }

  public static void publish(EventBus bus, String stopKey) {
    bus.publish(Addresses.QUERIES_STOP, new JsonObject().put(Keys.STOP_KEY, stopKey));
  }

  public static String stopKeyOf(JsonObject message) {
    return message.getString(Keys.STOP_KEY, "");
  }
}
