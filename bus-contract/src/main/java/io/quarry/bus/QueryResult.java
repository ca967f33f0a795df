package io.quarry.bus;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * The result of one SQL query: at most 1,000 rows travel and are stored; {@code totalRows} is exact.
 *
 * @param columns {@code [{name, type}]}
 * @param rows    row arrays in column order
 */
public record QueryResult(
    String id,
    String conversationId,
    String sql,
    JsonArray columns,
    JsonArray rows,
    long totalRows,
    boolean truncated,
    long executionTimeMs,
    String createdAt) {

  /** Rows a result carries at most, on the bus and in storage. */
  public static final int MAX_ROWS = 1_000;

  public QueryResult withIdentity(String newId, String newConversationId, String newSql) {
    return new QueryResult(newId, newConversationId, newSql, columns, rows, totalRows, truncated, executionTimeMs,
        createdAt);
  }

  /** At most {@link #MAX_ROWS} rows, {@code truncated} when rows were dropped; {@code totalRows} stays exact. */
  public QueryResult capped() {
    if (rows.size() <= MAX_ROWS) {
      return this;
    }
    return new QueryResult(id, conversationId, sql, columns, new JsonArray(rows.getList().subList(0, MAX_ROWS)),
        Math.max(totalRows, rows.size()), true, executionTimeMs, createdAt);
  }

  public QueryResult stored(String newId, String newCreatedAt) {
    return new QueryResult(newId, conversationId, sql, columns, rows, totalRows, truncated, executionTimeMs,
        newCreatedAt);
  }

  public JsonObject toJson() {
    return new JsonObject()
        .put("id", id)
        .put("conversation_id", conversationId)
        .put("sql", sql)
        .put("columns", columns)
        .put("rows", rows)
        .put("total_rows", totalRows)
        .put("truncated", truncated)
        .put("execution_time_ms", executionTimeMs)
        .put("created_at", createdAt);
  }

  public static QueryResult fromJson(JsonObject json) {
    return new QueryResult(
        json.getString("id"),
        json.getString("conversation_id"),
        json.getString("sql"),
        json.getJsonArray("columns", new JsonArray()),
        json.getJsonArray("rows", new JsonArray()),
        json.getLong("total_rows", 0L),
        json.getBoolean("truncated", false),
        json.getLong("execution_time_ms", 0L),
        json.getString("created_at"));
  }
}
