package io.quarry.llm;

import io.quarry.bus.ChatEvents;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.json.JsonObject;

/** Publishes one conversation's events to its user's browsers. */
final class Events {

  private final EventBus bus;
  private final String userId;
  private final String conversationId;

  Events(EventBus bus, String userId, String conversationId) {
    this.bus = bus;
    this.userId = userId;
    this.conversationId = conversationId;
  }

  void emit(String type, JsonObject fields) {
    ChatEvents.publish(bus, userId, ChatEvents.event(type, conversationId).mergeIn(fields));
  }

  void emit(JsonObject event) {
    ChatEvents.publish(bus, userId, event);
  }

  void phase(String phase) {
    emit(ChatEvents.QUERY_STATUS, new JsonObject().put("phase", phase));
  }
}
