package io.quarry.testing;

import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * The chat events one browser receives, in order, as a test reads them: fed by a WebSocket (a whole node) or by a
 * consumer of the user's {@code chat.events.<userId>} address (a verticle alone). The test's thread waits for the
 * event it wants, at most ten seconds, and every event passed on the way stays in {@link #seen}.
 */
public final class EventLog {

  /** Where each event is stamped with {@link System#nanoTime()} when it arrived. */
  public static final String RECEIVED_NANOS = "_received_nanos";

  private final BlockingQueue<JsonObject> arrived = new LinkedBlockingQueue<>();
  private final List<JsonObject> seen = new ArrayList<>();

  /** Called from whichever thread receives the event. */
  public void add(JsonObject event) {
    arrived.add(event.copy().put(RECEIVED_NANOS, System.nanoTime()));
  }

  /** The next event matching, waiting at most ten seconds. */
  public JsonObject next(Predicate<JsonObject> wanted) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (true) {
      JsonObject event = arrived.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
      if (event == null) {
        throw new AssertionError("no matching event within 10 s; seen: " + seen);
      }
      seen.add(event);
      if (wanted.test(event)) {
        return event;
      }
    }
  }

  public JsonObject next(String type) throws InterruptedException {
    return next(e -> type.equals(e.getString("type")));
  }

  /** Events up to and including the first that ends a turn (chat_complete or chat_error). */
  public List<JsonObject> untilTurnEnds() throws InterruptedException {
    int from = seen.size();
    next(e -> "chat_complete".equals(e.getString("type")) || "chat_error".equals(e.getString("type")));
    return List.copyOf(seen.subList(from, seen.size()));
  }

  /** Every event read so far, oldest first. */
  public List<JsonObject> seen() {
    return List.copyOf(seen);
  }

  /** The types of {@code events}, pings left out. */
  public static List<String> types(List<JsonObject> events) {
    return events.stream().map(e -> e.getString("type")).filter(t -> !"ping".equals(t)).toList();
  }

  /** The events of one type, in order. */
  public static List<JsonObject> ofType(List<JsonObject> events, String type) {
    return events.stream().filter(e -> type.equals(e.getString("type"))).toList();
  }

  /** The answer's text as the browser shows it: every chat_token's token, in order. */
  public static String tokens(List<JsonObject> events) {
    StringBuilder text = new StringBuilder();
    ofType(events, "chat_token").forEach(e -> text.append(e.getString("token")));
    return text.toString();
  }
}
