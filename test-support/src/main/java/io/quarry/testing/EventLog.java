package io.quarry.testing;

import io.quarry.bus.ChatEvents;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * The events one listener receives, in order, as a test reads them: a browser's chat events fed by a WebSocket
 * (a whole node) or by a consumer of the user's {@code chat.events.<userId>} address (a verticle alone), or any
 * address's. The test's thread waits for what it wants, bounded (ten seconds unless told), never by sleeping;
 * every event passed on the way stays in {@link #seen}.
 */
public final class EventLog {

  private static final long WAIT_S = 10;

  private final BlockingQueue<JsonObject> arrived = new LinkedBlockingQueue<>();
  private final List<JsonObject> seen = new ArrayList<>();

  /** Called from whichever thread receives the event. */
  public void add(JsonObject event) {
    arrived.add(event);
  }

  /** The next event matching, waiting at most ten seconds. */
  public JsonObject next(Predicate<JsonObject> wanted) throws InterruptedException {
    return next(wanted, WAIT_S);
  }

  /** The next event matching, waiting at most {@code seconds}. */
  public JsonObject next(Predicate<JsonObject> wanted, long seconds) throws InterruptedException {
    return nextBefore(wanted, System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds), seconds);
  }

  private JsonObject nextBefore(Predicate<JsonObject> wanted, long deadlineNanos, long seconds)
      throws InterruptedException {
    while (true) {
      JsonObject event = arrived.poll(deadlineNanos - System.nanoTime(), TimeUnit.NANOSECONDS);
      if (event == null) {
        throw new AssertionError("no matching event within " + seconds + " s; seen: " + seen);
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

  /** The next {@code count} events, whatever they are, all within ten seconds. */
  public List<JsonObject> next(int count) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_S);
    List<JsonObject> received = new ArrayList<>();
    while (received.size() < count) {
      received.add(nextBefore(e -> true, deadline, WAIT_S));
    }
    return received;
  }

  /** Events up to and including the first that ends a turn (chat_complete or chat_error). */
  public List<JsonObject> untilTurnEnds() throws InterruptedException {
    int from = seen.size();
    next(e -> ChatEvents.CHAT_COMPLETE.equals(e.getString("type")) || ChatEvents.CHAT_ERROR.equals(e.getString("type")));
    return List.copyOf(seen.subList(from, seen.size()));
  }

  /** Every event read so far, oldest first. */
  public List<JsonObject> seen() {
    return List.copyOf(seen);
  }

  /** The types of {@code events}, pings left out. */
  public static List<String> types(List<JsonObject> events) {
    return events.stream().map(e -> e.getString("type")).filter(t -> !ChatEvents.PING.equals(t)).toList();
  }

  /** The events of one type, in order. */
  public static List<JsonObject> ofType(List<JsonObject> events, String type) {
    return events.stream().filter(e -> type.equals(e.getString("type"))).toList();
  }

  /** The answer's text as the browser shows it: every chat_token's token, in order. */
  public static String tokens(List<JsonObject> events) {
    StringBuilder text = new StringBuilder();
    ofType(events, ChatEvents.CHAT_TOKEN).forEach(e -> text.append(e.getString("token")));
    return text.toString();
  }
}
