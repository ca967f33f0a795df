package io.quarry.storage;

import static io.quarry.storage.Db.requireText;

import io.quarry.bus.Keys;
import io.quarry.bus.TokenUsage;
import io.quarry.bus.Timestamps;
import io.quarry.bus.UsageWindow;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/** Token usage: one row per Gemini request, summed over a rolling window. */
final class UsageStore {

  private final Db db;

  UsageStore(Db db) {
    this.db = db;
  }

  Future<JsonObject> record(JsonObject body) {
    TokenUsage u = TokenUsage.fromJson(body);
    requireText(body, Keys.USER_ID);
    return db.run("INSERT INTO token_usage (user_id, conversation_id, model_name, input_tokens, output_tokens,"
                + " created_at) VALUES (?, ?, ?, ?, ?, ?)", u.userId(), u.conversationId(),
            u.modelName() == null ? "unknown" : u.modelName(), u.inputTokens(), u.outputTokens(),
            u.createdAt() == null ? Timestamps.now() : u.createdAt())
        .map(v -> new JsonObject());
  }

  Future<JsonObject> window(JsonObject body) {
    return db.one("No usage", "SELECT COALESCE(SUM(input_tokens), 0) AS input, COALESCE(SUM(output_tokens), 0) AS output,"
                + " MIN(created_at) AS oldest FROM token_usage WHERE user_id = ? AND created_at >= ?",
            requireText(body, Keys.USER_ID), requireText(body, Keys.SINCE))
        .map(row -> new UsageWindow(row.getLong("input"), row.getLong("output"), row.getString("oldest")).toJson());
  }
}
