package io.quarry.bus;

import io.vertx.core.json.JsonObject;

/** Tokens one Gemini request consumed, successful or not. */
public record TokenUsage(
    String userId, String conversationId, String modelName, long inputTokens, long outputTokens, String createdAt) {

  public JsonObject toJson() {
    return new JsonObject()
        .put("user_id", userId)
        .put("conversation_id", conversationId)
        .put("model_name", modelName)
        .put("input_tokens", inputTokens)
        .put("output_tokens", outputTokens)
        .put("created_at", createdAt);
  }

  public static TokenUsage fromJson(JsonObject json) {
    return new TokenUsage(
        json.getString("user_id"),
        json.getString("conversation_id"),
        json.getString("model_name"),
        json.getLong("input_tokens", 0L),
        json.getLong("output_tokens", 0L),
        json.getString("created_at"));
  }
}
