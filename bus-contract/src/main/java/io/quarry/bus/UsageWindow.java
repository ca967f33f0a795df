package io.quarry.bus;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * A user's token use inside a window.
 *
 * @param oldestAt when the oldest usage inside the window was recorded (null when none): the window
 *                 frees that usage once it is older than the window
 * @param entries  oldest first: when each usage leaves the window (listed when asked: see
 *                 {@link StorageOps.UsageSince#listFrom()})
 * @param estimated some of the usage inside the window is estimated (see {@link TokenUsage#estimated()})
 */
public record UsageWindow(long inputTokens, long outputTokens, String oldestAt, List<Entry> entries,
    boolean estimated) {

  /** One recorded use: its time and its tokens (input and output). */
  public record Entry(String createdAt, long tokens) {

    JsonObject toJson() {
      return new JsonObject().put("created_at", createdAt).put("tokens", tokens);
    }

    static Entry fromJson(JsonObject json) {
      return new Entry(json.getString("created_at"), json.getLong("tokens", 0L));
    }
  }

  public UsageWindow {
    entries = List.copyOf(entries);
  }

  /** None of it estimated. */
  public UsageWindow(long inputTokens, long outputTokens, String oldestAt, List<Entry> entries) {
    this(inputTokens, outputTokens, oldestAt, entries, false);
  }

  public UsageWindow(long inputTokens, long outputTokens, String oldestAt) {
    this(inputTokens, outputTokens, oldestAt, List.of(), false);
  }

  public long total() {
    return inputTokens + outputTokens;
  }

  public JsonObject toJson() {
    return new JsonObject()
        .put("input_tokens", inputTokens)
        .put("output_tokens", outputTokens)
        .put("oldest_at", oldestAt)
        .put("entries", new JsonArray(entries.stream().map(Entry::toJson).toList()))
        .put("estimated", estimated);
  }

  public static UsageWindow fromJson(JsonObject json) {
    return new UsageWindow(json.getLong("input_tokens", 0L), json.getLong("output_tokens", 0L),
        json.getString("oldest_at"), json.getJsonArray("entries", new JsonArray()).stream()
            .map(entry -> Entry.fromJson((JsonObject) entry)).toList(), json.getBoolean("estimated", false));
  }
}
