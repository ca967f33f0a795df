package io.quarry.app;

import io.quarry.bus.Addresses;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/** Records the events published on an address, and waits for them (bounded) without sleeping. */
final class EventRecorder implements AutoCloseable {

  private final BlockingQueue<JsonObject> events = new LinkedBlockingQueue<>();
  private final MessageConsumer<JsonObject> consumer;

  /** The browser events published for one user. */
  EventRecorder(Node node, String userId) {
    this(node.vertx().eventBus().consumer(Addresses.chatEvents(userId)));
  }

  /** The events published inside this node's process on {@code address}. */
  static EventRecorder local(Node node, String address) {
    return new EventRecorder(node.vertx().eventBus().localConsumer(address));
  }

  private EventRecorder(MessageConsumer<JsonObject> consumer) {
    this.consumer = consumer.handler(m -> events.add(m.body()));
    consumer.completion().await();
  }

  /** The next {@code count} events, failing if they do not all arrive within 10 seconds. */
  List<JsonObject> next(int count) throws InterruptedException {
    List<JsonObject> received = new ArrayList<>();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (received.size() < count) {
      JsonObject event = events.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
      if (event == null) {
        throw new AssertionError("expected " + count + " events, got " + received);
      }
      received.add(event);
    }
    return received;
  }

  /** The next event that matches, skipping the others, failing if none arrives within {@code seconds}. */
  JsonObject next(Predicate<JsonObject> wanted, long seconds) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    for (JsonObject event = events.poll(seconds, TimeUnit.SECONDS); event != null;
        event = events.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
      if (wanted.test(event)) {
        return event;
      }
    }
    throw new AssertionError("no such event within " + seconds + " s");
  }

  @Override
  public void close() {
    consumer.unregister().await();
  }
}
