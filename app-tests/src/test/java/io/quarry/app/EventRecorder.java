package io.quarry.app;

import io.quarry.bus.Addresses;
import io.quarry.testing.EventLog;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.function.Predicate;

/** Records the events published on an address of a node, read through an {@link EventLog}. */
final class EventRecorder implements AutoCloseable {

  private final EventLog events = new EventLog();
  private final MessageConsumer<JsonObject> consumer;

  /** The browser events published for one user. */
  EventRecorder(Node node, String userId) {
    this(node.vertx().eventBus().consumer(Addresses.chatEvents(userId)));
  }

  /** The events published inside this node's process on {@code address}. */
  static EventRecorder local(Node node, String address) {
    return new EventRecorder(node.vertx().eventBus().localConsumer(address));
  }

  /**
   * The browser events published for one user about one conversation (where tests share a node, the user's other
   * conversations are other tests').
   */
  static EventRecorder ofConversation(Node node, String userId, String conversationId) {
    return new EventRecorder(node.vertx().eventBus().consumer(Addresses.chatEvents(userId)),
        event -> conversationId.equals(event.getString("conversation_id")));
  }

  private EventRecorder(MessageConsumer<JsonObject> consumer) {
    this(consumer, event -> true);
  }

  private EventRecorder(MessageConsumer<JsonObject> consumer, Predicate<JsonObject> kept) {
    this.consumer = consumer.handler(m -> {
      if (kept.test(m.body())) {
        events.add(m.body());
      }
    });
    consumer.completion().await();
  }

  /** The next {@code count} events, failing if they do not all arrive within 10 seconds. */
  List<JsonObject> next(int count) throws InterruptedException {
    return events.next(count);
  }

  /** The next event that matches, skipping the others, failing if none arrives within {@code seconds}. */
  JsonObject next(Predicate<JsonObject> wanted, long seconds) throws InterruptedException {
    return events.next(wanted, seconds);
  }

  @Override
  public void close() {
    consumer.unregister().await();
  }
}
