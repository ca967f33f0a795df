package io.quarry.app;

import io.quarry.bus.Addresses;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** Records the browser events published for one user, and waits for them (bounded) without sleeping. */
final class EventRecorder implements AutoCloseable {

  private final BlockingQueue<JsonObject> events = new LinkedBlockingQueue<>();
  private final MessageConsumer<JsonObject> consumer;

  EventRecorder(Node node, String userId) {
    consumer = node.vertx().eventBus().consumer(Addresses.chatEvents(userId), m -> events.add(m.body()));
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

  @Override
  public void close() {
    consumer.unregister().await();
  }
}
