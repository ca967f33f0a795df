package io.quarry.bus;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * One message of a conversation. An assistant message carries what is needed to redraw it: its
 * tool-call rounds, the SQL it ran, the ids of the stored results, its chart specs and its tokens.
 *
 * @param status {@code complete}, {@code cancelled} (stopped; partial answer kept), {@code error},
 *     {@code declined} (Gemini refused), {@code streaming} (being written: saved as it grows) or
 *     {@code interrupted} (the server died while it was streaming; partial answer kept)
 * @param notice why the answer ended short or was cut, in words the user reads under it; null when it did not
 * @param numbers an answer's numbers checked against its turn's results ({@code {checked, matched, unmatched:
 *     [{text, position}], cells: [{text, position, result_id, row, column}], several: [{text, position, count}]}}:
 *     found in one cell, several values are it, not found; {@code several} is absent from answers checked before it
 *     was added); null when not checked
 */
public record ChatMessage(
    String id,
    String conversationId,
    String role,
    String content,
    JsonArray toolRounds,
    JsonArray sql,
    JsonArray resultIds,
    JsonArray charts,
    long inputTokens,
    long outputTokens,
    String status,
    String notice,
    String createdAt,
    JsonObject numbers) {

  /** A message whose numbers were not checked (questions, and answers before the check). */
  public ChatMessage(String id, String conversationId, String role, String content, JsonArray toolRounds, JsonArray sql,
      JsonArray resultIds, JsonArray charts, long inputTokens, long outputTokens, String status, String notice,
      String createdAt) {
    this(id, conversationId, role, content, toolRounds, sql, resultIds, charts, inputTokens, outputTokens, status,
        notice, createdAt, null);
  }

  public static final String USER = "user";
  public static final String ASSISTANT = "assistant";
  public static final String TOOL = "tool";

  public static final String COMPLETE = "complete";
  public static final String CANCELLED = "cancelled";
  public static final String ERROR = "error";
  public static final String DECLINED = "declined";
  public static final String STREAMING = "streaming";
  public static final String INTERRUPTED = "interrupted";

  public static ChatMessage user(String conversationId, String content) {
    return new ChatMessage(null, conversationId, USER, content, new JsonArray(), new JsonArray(),
        new JsonArray(), new JsonArray(), 0, 0, COMPLETE, null, null);
  }

  /** The same message under the id its writer chose, so that a second delivery of its save finds it stored. */
  public ChatMessage withId(String newId) {
    return new ChatMessage(newId, conversationId, role, content, toolRounds, sql, resultIds, charts, inputTokens,
        outputTokens, status, notice, createdAt, numbers);
  }

  public JsonObject toJson() {
    return new JsonObject()
        .put("id", id)
        .put("conversation_id", conversationId)
        .put("role", role)
        .put("content", content)
        .put("tool_rounds", orEmpty(toolRounds))
        .put("sql", orEmpty(sql))
        .put("result_ids", orEmpty(resultIds))
        .put("charts", orEmpty(charts))
        .put("input_tokens", inputTokens)
        .put("output_tokens", outputTokens)
        .put("token_count", inputTokens + outputTokens)
        .put("status", status)
        .put("notice", notice)
        .put("created_at", createdAt)
        .put("numbers", numbers);
  }

  public static ChatMessage fromJson(JsonObject json) {
    return new ChatMessage(
        json.getString("id"),
        json.getString("conversation_id"),
        json.getString("role"),
        json.getString("content", ""),
        orEmpty(json.getJsonArray("tool_rounds")),
        orEmpty(json.getJsonArray("sql")),
        orEmpty(json.getJsonArray("result_ids")),
        orEmpty(json.getJsonArray("charts")),
        json.getLong("input_tokens", 0L),
        json.getLong("output_tokens", 0L),
        json.getString("status", COMPLETE),
        json.getString("notice"),
        json.getString("created_at"),
        json.getJsonObject("numbers"));
  }

  private static JsonArray orEmpty(JsonArray array) {
    return array == null ? new JsonArray() : array;
  }
}
