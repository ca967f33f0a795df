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
  public static final String CHART = "chart";
  public static final String TABLE = "table";
  public static final String CHAT_COMPLETE = "chat_complete";
  public static final String CHAT_ERROR = "chat_error";
  public static final String RATE_LIMIT_WARNING = "rate_limit_warning";
  public static final String RATE_LIMIT_EXCEEDED = "rate_limit_exceeded";
  public static final String CONVERSATION_UPDATED = "conversation_updated";
  public static final String PING = "ping";

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

  /** {@code query_result}: the first rows of a stored result. */
  public static JsonObject queryResult(QueryResult r) {
    JsonArray preview = new JsonArray(r.rows().getList().subList(0, Math.min(RESULT_PREVIEW_ROWS, r.rows().size())));
    return event(QUERY_RESULT, r.conversationId()).put("result_id", r.id()).put("sql", r.sql())
        .put("columns", r.columns()).put("rows", preview).put("total_rows", r.totalRows())
        .put("truncated", r.truncated()).put("execution_time_ms", r.executionTimeMs());
  }

  public static void publish(EventBus bus, String userId, JsonObject event) {
    bus.publish(Addresses.chatEvents(userId), event);
  }
}
