package io.quarry.bus;

import io.vertx.core.json.JsonObject;

/**
 * A question run again on a {@link Cadence}: the SQL of its target (a stored result, or a board's tile whose copy each run replaces: {@code
 * targetKind} {@link #RESULT} or {@link #TILE}, with its id) over its conversation's datasets. {@code webhookSecret}
 * travels only to the scheduler that signs with it (a claim's answer) and once to the user who made it; every list
 * and read leaves it null. {@code leaseUntil} is set while a node runs it.
 */
public record Schedule(String id, String userId, String targetKind, String targetId, String conversationId,
    String sql, Cadence cadence, String webhookUrl, String webhookSecret, String nextRunAt, boolean paused,
    String createdAt) {

  public static final String RESULT = "result";
  public static final String TILE = "tile";

  public Schedule withSecret(String secret) {
    return new Schedule(id, userId, targetKind, targetId, conversationId, sql, cadence, webhookUrl, secret,
        nextRunAt, paused, createdAt);
  }

  /** As the user sees it (no secret unless one is set on this copy, as on the answer to its creation). */
  public JsonObject toJson() {
    JsonObject json = new JsonObject().put(Keys.ID, id).put(Keys.USER_ID, userId).put("target_kind", targetKind)
        .put("target_id", targetId).put(Keys.CONVERSATION_ID, conversationId).put(Keys.SQL, sql)
        .put("every", cadence.every()).put("at", cadence.at()).put("time_zone", cadence.zone().getId())
        .put("webhook_url", webhookUrl).put("next_run_at", nextRunAt).put("paused", paused)
        .put(Keys.CREATED_AT, createdAt);
    if (Cadence.WEEKLY.equals(cadence.every())) {
      json.put("weekday", cadence.weekdayName());
    }
    if (RESULT.equals(targetKind)) {
      json.put(Keys.RESULT_ID, targetId);
    }
    return webhookSecret == null ? json : json.put("webhook_secret", webhookSecret);
  }

  public static Schedule fromJson(JsonObject json) {
    return new Schedule(json.getString(Keys.ID), json.getString(Keys.USER_ID), json.getString("target_kind"),
        json.getString("target_id"), json.getString(Keys.CONVERSATION_ID), json.getString(Keys.SQL),
        Cadence.of(json.getString("every"), json.getString("at"), json.getString("weekday"),
            json.getString("time_zone")),
        json.getString("webhook_url"), json.getString("webhook_secret"), json.getString("next_run_at"),
        json.getBoolean("paused", false), json.getString(Keys.CREATED_AT));
  }
}
