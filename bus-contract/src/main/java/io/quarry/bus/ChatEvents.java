package io.quarry.bus;

import io.vertx.core.eventbus.EventBus;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * Events for a user's browsers (SPEC §5), published on {@link Addresses#chatEvents(String)} and relayed
 * as they are to every WebSocket of that user. Every event is {@code {type, conversation_id, ...}}.
 */
public final class ChatEvents {

  public static final String DATASET_LOADING = "dataset_loading";
  public static final String DATASET_LOADED = "dataset_loaded";
  public static final String DATASET_ERROR = "dataset_error";
  public static final String DATASET_REMOVED = "dataset_removed";
  public static final String CHAT_TOKEN = "chat_token";
  public static final String QUERY_STATUS = "query_status";
  public static final String TOOL_CALL_START = "tool_call_start";
  public static final String QUERY_RESULT = "query_result";
  public static final String QUERY_ERROR = "query_error";
  public static final String QUERY_PROGRESS = "query_progress";
  public static final String CHART = "chart";
  public static final String TABLE = "table";
  public static final String CHAT_COMPLETE = "chat_complete";
  public static final String CHAT_ERROR = "chat_error";
  public static final String RATE_LIMIT_WARNING = "rate_limit_warning";
  public static final String RATE_LIMIT_EXCEEDED = "rate_limit_exceeded";
  public static final String CONVERSATION_UPDATED = "conversation_updated";
  public static final String PING = "ping";
  /** A scheduled question's run ended (see {@link ScheduleOps#event}). */
  public static final String SCHEDULE_RUN = "schedule_run";

  /** Rows a {@code query_result} event carries; the full (≤ 1,000 rows) result is fetched by id. */
  public static final int RESULT_PREVIEW_ROWS = 100;

  private ChatEvents() {
  }

  public static JsonObject event(String type, String conversationId) {
    return new JsonObject().put("type", type).put("conversation_id", conversationId);
  }

  public static JsonObject dataset(String type, Dataset dataset) {
    return event(type, dataset.conversationId()).put("dataset", dataset.toJson());
  }

  public static JsonObject chatToken(String conversationId, String messageId, String token) {
    return event(CHAT_TOKEN, conversationId).put("message_id", messageId).put("token", token);
  }

  /** {@code phase}: generating, executing or formatting. */
  public static JsonObject queryStatus(String conversationId, String phase) {
    return event(QUERY_STATUS, conversationId).put("phase", phase);
  }

  /**
   * While a query waits for its data to be fetched: bytes received and expected in all ({@code bytes_total} null
   * when a server does not say), and per table ({@code tables: [{table, bytes_done, bytes_total}]}).
   */
  public static JsonObject queryProgress(String conversationId, JsonArray tables) {
    long done = 0;
    Long total = 0L;
    for (Object item : tables) {
      JsonObject table = (JsonObject) item;
      done += table.getLong("bytes_done");
      Long expected = table.getLong("bytes_total");
      total = total == null || expected == null ? null : total + expected;
    }
    return event(QUERY_PROGRESS, conversationId).put("bytes_done", done).put("bytes_total", total)
        .put("tables", tables);
  }

  public static JsonObject toolCallStart(String conversationId, String tool, JsonObject args) {
    return event(TOOL_CALL_START, conversationId).put("tool", tool).put("args", args);
  }

  public static JsonObject queryError(String conversationId, String sql, String error) {
    return event(QUERY_ERROR, conversationId).put("sql", sql).put("error", error);
  }

  /** {@code data}: what it draws, computed from every row of the result ({@link ChartData}). */
  public static JsonObject chart(String conversationId, String resultId, ChartData data) {
    return event(CHART, conversationId).put("result_id", resultId).put("spec", data.spec()).put("data", data.toJson());
  }

  public static JsonObject table(String conversationId, String resultId, String title, JsonArray columns) {
    return event(TABLE, conversationId).put("result_id", resultId).put("title", title).put("columns", columns);
  }

  /** {@code notice}: why the answer ended short (cut off, declined), shown under it; null when it did not. */
  public static JsonObject chatComplete(String conversationId, String messageId, long inputTokens, long outputTokens,
      String notice) {
    return chatComplete(conversationId, messageId, inputTokens, outputTokens, notice, null);
  }

  /** {@code numbers}: the answer's numbers checked against its results (see {@code ChatMessage#numbers}). */
  public static JsonObject chatComplete(String conversationId, String messageId, long inputTokens, long outputTokens,
      String notice, JsonObject numbers) {
    return event(CHAT_COMPLETE, conversationId).put("message_id", messageId).put("token_count", inputTokens + outputTokens)
        .put("input_tokens", inputTokens).put("output_tokens", outputTokens).put("notice", notice)
        .put("numbers", numbers);
  }

  public static JsonObject chatError(String conversationId, String messageId, String error, String details) {
    return event(CHAT_ERROR, conversationId).put("message_id", messageId).put("error", error).put("details", details);
  }

  public static JsonObject rateLimitWarning(String conversationId, double usagePercent, long remainingTokens) {
    return event(RATE_LIMIT_WARNING, conversationId).put("usage_percent", usagePercent)
        .put("remaining_tokens", remainingTokens);
  }

  public static JsonObject rateLimitExceeded(String conversationId, long resetsInSeconds) {
    return event(RATE_LIMIT_EXCEEDED, conversationId).put("resets_in_seconds", resetsInSeconds);
  }

  public static JsonObject conversationUpdated(String conversationId, String title) {
    return event(CONVERSATION_UPDATED, conversationId).put("title", title);
  }

  /** {@code query_result}: the first rows of a stored result. */
  public static JsonObject queryResult(QueryResult r) {
    JsonArray rows = r.rowValues();
    JsonArray preview = new JsonArray(rows.getList().subList(0, Math.min(RESULT_PREVIEW_ROWS, rows.size())));
    return event(QUERY_RESULT, r.conversationId()).put("result_id", r.id()).put("sql", r.sql())
        .put("columns", r.columns()).put("rows", preview).put("total_rows", r.totalRows())
        .put("truncated", r.truncated()).put("execution_time_ms", r.executionTimeMs()).put("note", r.note())
        .put("sources", r.sources());
  }

  public static void publish(EventBus bus, String userId, JsonObject event) {
    bus.publish(Addresses.chatEvents(userId), event);
  }
}
