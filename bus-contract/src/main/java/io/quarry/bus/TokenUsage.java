package io.quarry.bus;

import io.vertx.core.json.JsonObject;

/**
 * Tokens one model request consumed, successful or not.
 *
 * @param estimated the model's server gave no figures (some OpenAI-compatible ones never do): they are estimated from
 *     the characters sent and received
 */
public record TokenUsage(String userId, String conversationId, String modelName, long inputTokens, long outputTokens,
    String createdAt, boolean estimated) {

  /** Figures the model's server gave. */
  public TokenUsage(String userId, String conversationId, String modelName, long inputTokens, long outputTokens,
      String createdAt) {
    this(userId, conversationId, modelName, inputTokens, outputTokens, createdAt, false);
  }

  public JsonObject toJson() {
    return new JsonObject()
        .put("user_id", userId)
        .put("conversation_id", conversationId)
        .put("model_name", modelName)
        .put("input_tokens", inputTokens)
        .put("output_tokens", outputTokens)
        .put("created_at", createdAt)
        .put("estimated", estimated);
  }

  public static TokenUsage fromJson(JsonObject json) {
    return new TokenUsage(
        json.getString("user_id"),
        json.getString("conversation_id"),
        json.getString("model_name"),
        json.getLong("input_tokens", 0L),
        json.getLong("output_tokens", 0L),
        json.getString("created_at"),
        json.getBoolean("estimated", false));
  }
}
