package io.quarry.bus;

import io.vertx.core.eventbus.EventBus;
import io.vertx.core.json.JsonObject;

/**
 * Events for a user's browsers (SPEC §5), published on {@link Addresses#chatEvents(String)} and relayed
 * as they are to every WebSocket of that user. Every event is {@code {type, conversation_id, ...}}.
 */
public final class ChatEvents {

  public static final String DATASET_LOADING = "dataset_loading";
  public static final String DATASET_LOADED = "dataset_loaded";
  public static final String DATASET_ERROR = "dataset_error";
  public static final String DATASET_REMOVED = "dataset_removed";

  private ChatEvents() {
  }

  public static JsonObject event(String type, String conversationId) {
    return new JsonObject().put("type", type).put("conversation_id", conversationId);
  }

  public static JsonObject dataset(String type, Dataset dataset) {
    return event(type, dataset.conversationId()).put("dataset", dataset.toJson());
  }

  public static void publish(EventBus bus, String userId, JsonObject event) {
    bus.publish(Addresses.chatEvents(userId), event);
  }
}
