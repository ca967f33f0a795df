package io.quarry.bus;

import io.vertx.core.json.JsonObject;

/**
 * Whether chat can run ({@code llm.status}'s reply).
 *
 * @param provider whose API the model is reached through: {@code gemini} or {@code openai} (null: no chat service)
 * @param reason why not, for people (null when available)
 */
public record LlmStatus(boolean available, String provider, String model, String reason) {

  /** What a node says when no llm role answers at all. */
  public static final LlmStatus NO_SERVICE = new LlmStatus(false, null, null, "No chat service is running");

  public JsonObject toJson() {
    return new JsonObject().put("available", available).put("provider", provider).put("model", model)
        .put("reason", reason);
  }

  public static LlmStatus fromJson(JsonObject json) {
    return new LlmStatus(json.getBoolean("available", false), json.getString("provider"), json.getString("model"),
        json.getString("reason"));
  }
}
