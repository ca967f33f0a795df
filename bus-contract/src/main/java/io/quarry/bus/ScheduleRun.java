package io.quarry.bus;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * One run of a {@link Schedule}, made once per due time whoever runs it ({@code dueAt} is unique per schedule): its
 * outcome ({@link #RUNNING} until it ends {@link #OK} or {@link #FAILED} with its {@code reason}), its rows (at most
 * {@link QueryResult#MAX_ROWS}, read by the next run's comparison; null in lists), the comparison with the run before
 * and its {@code summary} line, and how far its delivery got: the page's event, and the webhook ({@link #NONE},
 * {@link #PENDING} with its attempts and when the next is due, {@link #DELIVERED} or {@link #GAVE_UP}).
 */
public record ScheduleRun(String id, String scheduleId, String dueAt, String status, String reason, String resultId,
    JsonArray columns, JsonArray rows, String summary, JsonObject comparison, boolean eventSent, String webhookState,
    int attempts, String nextAttemptAt, String lastError, String createdAt, String finishedAt) {

  public static final String RUNNING = "running";
  public static final String OK = "ok";
  public static final String FAILED = "failed";
  public static final String NONE = "none";
  public static final String PENDING = "pending";
  public static final String DELIVERED = "delivered";
  public static final String GAVE_UP = "failed";

  public boolean finished() {
    return !RUNNING.equals(status);
  }

  /** Ended: {@code ok} with its rows and comparison, or {@code failed} with its reason. */
  public ScheduleRun ended(String newStatus, String newReason, String newResultId, JsonArray newColumns,
      JsonArray newRows, String newSummary, JsonObject newComparison, String at) {
    return new ScheduleRun(id, scheduleId, dueAt, newStatus, newReason, newResultId, newColumns, newRows, newSummary,
        newComparison, eventSent, webhookState, attempts, nextAttemptAt, lastError, createdAt, at);
  }

  public JsonObject toJson() {
    return new JsonObject().put(Keys.ID, id).put("schedule_id", scheduleId).put("due_at", dueAt)
        .put("status", status).put("reason", reason).put(Keys.RESULT_ID, resultId).put("columns", columns)
        .put("rows", rows).put("summary", summary).put("comparison", comparison).put("event_sent", eventSent)
        .put("webhook_state", webhookState).put("attempts", attempts).put("next_attempt_at", nextAttemptAt)
        .put("last_error", lastError).put(Keys.CREATED_AT, createdAt).put("finished_at", finishedAt);
  }

  public static ScheduleRun fromJson(JsonObject json) {
    return new ScheduleRun(json.getString(Keys.ID), json.getString("schedule_id"), json.getString("due_at"),
        json.getString("status"), json.getString("reason"), json.getString(Keys.RESULT_ID),
        json.getJsonArray("columns"), json.getJsonArray("rows"), json.getString("summary"),
        json.getJsonObject("comparison"), json.getBoolean("event_sent", false), json.getString("webhook_state"),
        json.getInteger("attempts", 0), json.getString("next_attempt_at"), json.getString("last_error"),
        json.getString(Keys.CREATED_AT), json.getString("finished_at"));
  }
}
