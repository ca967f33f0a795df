package io.quarry.storage;

import io.quarry.bus.QueryResult;
import io.quarry.bus.RowsJson;
import io.quarry.bus.StorageOps.ResultRef;
import io.quarry.bus.StorageOps.SaveResult;
import io.quarry.bus.StorageOps.Saved;
import io.quarry.bus.Timestamps;
import io.vertx.core.Future;
import io.vertx.sqlclient.Row;

/** Stored query results, at most {@link QueryResult#MAX_ROWS} rows each, so a reload redraws every table and chart. */
final class ResultStore {

  private final Db db;
  private final Quotas quotas;

  ResultStore(Db db, Quotas quotas) {
    this.db = db;
    this.quotas = quotas;
  }

  /**
   * Keeps the id a result comes with (the dataset verticle names it), or gives it one. A second delivery of a save finds the result stored and changes nothing.
   */
  Future<Saved> save(SaveResult request) {
    String userId = request.userId();
    QueryResult given = request.result().capped();
    QueryResult stored = given.id() == null ? given.stored(Db.newId(), Timestamps.now()) : given;
    // One statement: the ownership check is part of the insert, so a save costs one round trip.
    long bytes = length(stored.rows().text()) + length(Db.text(stored.columns())) + length(stored.sql())
        + length(stored.note());
    quotas.resultStored(userId, bytes);
    Future<Void> insert = db.run("INSERT INTO query_results (id, conversation_id, sql, columns_json,"
                + " rows_json, total_rows, truncated, execution_time_ms, created_at, note, sources)"
                // Typed, as PostgreSQL cannot infer a SELECT list's parameter types from the columns they fill.
                + " SELECT ?, ?, ?, ?, ?, CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS BIGINT), ?, ?, ?"
                + " WHERE EXISTS (SELECT 1 FROM conversations WHERE id = ? AND user_id = ?) ON CONFLICT (id) DO NOTHING",
            stored.id(), stored.conversationId(), stored.sql() == null ? "" : stored.sql(), Db.text(stored.columns()),
            stored.rows().text(), stored.totalRows(), stored.truncated() ? 1 : 0, stored.executionTimeMs(),
            stored.createdAt(), stored.note(), Db.text(stored.sources()),
            stored.conversationId() == null ? "" : stored.conversationId(), userId)
        .compose(rows -> rows.rowCount() > 0 ? Future.<Void>succeededFuture() : alreadyStored(stored.id(), userId)
            .onSuccess(v -> quotas.resultStored(userId, -bytes)))
        .onFailure(e -> quotas.resultStored(userId, -bytes));
    return insert.map(v -> new Saved(stored.id(), stored.createdAt()));
  }

  /** Nothing inserted: a second delivery of a save that was made, or a conversation that is not the user's. */
  private Future<Void> alreadyStored(String resultId, String userId) {
    return db.one(ConversationStore.NOT_FOUND, "SELECT 1 FROM query_results r JOIN conversations c"
        + " ON c.id = r.conversation_id WHERE r.id = ? AND c.user_id = ?", resultId, userId).mapEmpty();
  }

  /** As {@link Quotas#RESULT_BYTES} weighs it. */
  private static long length(String text) {
    return text == null ? 0 : text.length();
  }

  Future<QueryResult> get(ResultRef ref) {
    return find("r.*", ref.resultId(), ref.userId()).map(ResultStore::result);
  }

  /** Completes when the result is stored and the user's; else NOT_FOUND. */
  Future<Void> stored(String resultId, String userId) {
    return find("r.id", resultId, userId).mapEmpty();
  }

  private Future<Row> find(String columns, String resultId, String userId) {
    return db.one("Result not found", "SELECT " + columns + " FROM query_results r JOIN conversations c"
        + " ON c.id = r.conversation_id WHERE r.id = ? AND c.user_id = ?", resultId, userId);
  }

  private static QueryResult result(Row row) {
    return new QueryResult(row.getString("id"), row.getString("conversation_id"), row.getString("sql"),
        Db.array(row, "columns_json"), RowsJson.text(row.getString("rows_json")), row.getLong("total_rows"),
        row.getInteger("truncated") != 0, row.getLong("execution_time_ms"), row.getString("created_at"),
        row.getString("note"), Db.array(row, "sources"));
  }
}
