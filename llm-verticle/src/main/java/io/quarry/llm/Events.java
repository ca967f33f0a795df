package io.quarry.llm;

import io.quarry.bus.ChatEvents;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.json.JsonObject;

/** Publishes one conversation's events (built by {@link ChatEvents}) to its user's browsers. */
final class Events {

  private final EventBus bus;
  private final String userId;
  final String conversationId;

  Events(EventBus bus, String userId, String conversationId) {
    this.bus = bus;
    this.userId = userId;
    this.conversationId = conversationId;
  }

  void emit(JsonObject event) {
    ChatEvents.publish(bus, userId, event);
  }

  void phase(String phase) {
    emit(ChatEvents.queryStatus(conversationId, phase));
  }
}
