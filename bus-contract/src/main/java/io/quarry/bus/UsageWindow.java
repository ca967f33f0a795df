package io.quarry.bus;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * A user's token use inside a window.
 *
 * @param oldestAt when the oldest usage inside the window was recorded (null when none): the window
 *                 frees that usage once it is older than the window
 * @param entries  {@code [{created_at, tokens}]}, oldest first: when each usage leaves the window
 */
public record UsageWindow(long inputTokens, long outputTokens, String oldestAt, JsonArray entries) {

  public UsageWindow(long inputTokens, long outputTokens, String oldestAt) {
    this(inputTokens, outputTokens, oldestAt, new JsonArray());
  }

  public long total() {
    return inputTokens + outputTokens;
  }

  public JsonObject toJson() {
    return new JsonObject()
        .put("input_tokens", inputTokens)
        .put("output_tokens", outputTokens)
        .put("oldest_at", oldestAt)
        .put("entries", entries);
  }

  public static UsageWindow fromJson(JsonObject json) {
    return new UsageWindow(json.getLong("input_tokens", 0L), json.getLong("output_tokens", 0L),
        json.getString("oldest_at"), json.getJsonArray("entries", new JsonArray()));
  }
}
