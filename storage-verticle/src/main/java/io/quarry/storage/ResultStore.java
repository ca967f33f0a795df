package io.quarry.storage;

import static io.quarry.bus.Keys.required;

import io.quarry.bus.Keys;
import io.quarry.bus.QueryResult;
import io.quarry.bus.Timestamps;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;

/** Stored query results, at most {@link QueryResult#MAX_ROWS} rows each, so a reload redraws every table and chart. */
final class ResultStore {

  private final Db db;

  ResultStore(Db db) {
    this.db = db;
  }

  Future<JsonObject> save(JsonObject body) {
    String userId = required(body, Keys.USER_ID);
    QueryResult stored = QueryResult.fromJson(body.getJsonObject("result", new JsonObject())).capped()
        .stored(Db.newId(), Timestamps.now());
    // One statement: the ownership check is part of the insert, so a save costs one round trip.
    return Db.changed(db.run("INSERT INTO query_results (id, conversation_id, sql, columns_json, rows_json, total_rows,"
                + " truncated, execution_time_ms, created_at) SELECT ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE EXISTS"
                + " (SELECT 1 FROM conversations WHERE id = ? AND user_id = ?)",
            stored.id(), stored.conversationId(), stored.sql() == null ? "" : stored.sql(), Db.text(stored.columns()),
            Db.text(stored.rows()), stored.totalRows(), stored.truncated() ? 1 : 0, stored.executionTimeMs(),
            stored.createdAt(), stored.conversationId() == null ? "" : stored.conversationId(), userId),
            ConversationStore.NOT_FOUND)
        .map(v -> new JsonObject().put("id", stored.id()).put("created_at", stored.createdAt()));
  }

  Future<JsonObject> get(JsonObject body) {
    return db.one("Result not found", "SELECT r.* FROM query_results r JOIN conversations c ON c.id = r.conversation_id"
            + " WHERE r.id = ? AND c.user_id = ?", required(body, Keys.RESULT_ID), required(body, Keys.USER_ID))
        .map(row -> result(row).toJson());
  }

  private static QueryResult result(Row row) {
    return new QueryResult(row.getString("id"), row.getString("conversation_id"), row.getString("sql"),
        Db.array(row, "columns_json"), Db.array(row, "rows_json"), row.getLong("total_rows"),
        row.getInteger("truncated") != 0, row.getLong("execution_time_ms"), row.getString("created_at"));
  }
}
