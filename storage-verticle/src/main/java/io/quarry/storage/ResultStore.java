package io.quarry.storage;

import io.quarry.bus.Failure;
import io.quarry.bus.QueryResult;
import io.quarry.bus.RowsJson;
import io.quarry.bus.StorageOps.ResultRef;
import io.quarry.bus.StorageOps.SaveResult;
import io.quarry.bus.StorageOps.Saved;
import io.quarry.bus.Timestamps;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.sqlclient.Row;

/** Stored query results, at most {@link QueryResult#MAX_ROWS} rows each, so a reload redraws every table and chart. */
final class ResultStore {

  private final Db db;
  private final Quotas quotas;
  private final PendingSaves pending = new PendingSaves();

  /**
   * The query's answer does not wait for its result's save, and a read may come before the save has started here:
   * on a clustered bus a later message can overtake an earlier one from another sender, and with several storage
   * nodes (PostgreSQL) the save may be under way on another node. So a result not found is looked for again, every
   * {@value #LOOK_AGAIN_MS} ms, {@value #LOOKS} times.
   */
  private static final int LOOKS = 10;
  private static final long LOOK_AGAIN_MS = 50;

  private final Vertx vertx;

  ResultStore(Vertx vertx, Db db, Quotas quotas) {
    this.vertx = vertx;
    this.db = db;
    this.quotas = quotas;
  }

  /**
   * Keeps the id a result comes with (the caller may already have handed it out, see {@link PendingSaves}),
   * or gives it one. A second delivery of a save finds the result stored and changes nothing.
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
    return pending.save(stored.id(), insert).map(v -> new Saved(stored.id(), stored.createdAt()));
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
    return pending.read(ref.resultId(), () -> find("r.*", ref.resultId(), ref.userId(), LOOKS))
        .map(ResultStore::result);
  }

  /** Completes once the result is stored and the user's, waiting for its save as {@link #get} does; else NOT_FOUND. */
  Future<Void> stored(String resultId, String userId) {
    return pending.read(resultId, () -> find("r.id", resultId, userId, LOOKS)).mapEmpty();
  }

  private Future<Row> find(String columns, String resultId, String userId, int looks) {
    return db.one("Result not found", "SELECT " + columns + " FROM query_results r JOIN conversations c"
            + " ON c.id = r.conversation_id WHERE r.id = ? AND c.user_id = ?", resultId, userId)
        .recover(e -> looks > 1 && Failure.classify(e) == Failure.NOT_FOUND
            ? vertx.timer(LOOK_AGAIN_MS).compose(t -> find(columns, resultId, userId, looks - 1))
            : Future.failedFuture(e));
  }

  private static QueryResult result(Row row) {
    return new QueryResult(row.getString("id"), row.getString("conversation_id"), row.getString("sql"),
        Db.array(row, "columns_json"), RowsJson.text(row.getString("rows_json")), row.getLong("total_rows"),
        row.getInteger("truncated") != 0, row.getLong("execution_time_ms"), row.getString("created_at"),
        row.getString("note"), Db.array(row, "sources"));
  }
}
