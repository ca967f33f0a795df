package io.quarry.storage;

import io.quarry.bus.QuarryException;
import io.quarry.bus.ResultRun;
import io.quarry.bus.Scopes.ConversationRef;
import io.quarry.bus.StorageOps.SaveRun;
import io.quarry.bus.Timestamps;
import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import java.util.List;

/** Which stored results the user ran themselves ({@link ResultRun}), so that a reload shows them again. */
final class RunStore {

  private static final String COLUMNS = "u.result_id, u.conversation_id, u.origin, u.message_id, u.created_at";

  private final Db db;
  private final ResultStore results;

  RunStore(Db db, ResultStore results) {
    this.db = db;
    this.results = results;
  }

  /**
   * Marks a stored result. The result must be the user's
   * and of the conversation named; a second delivery finds the mark made and answers with it.
   */
  Future<ResultRun> save(SaveRun request) {
    String userId = request.userId();
    ResultRun run = request.run();
    if (run.resultId() == null || run.conversationId() == null || !ResultRun.knownOrigin(run.origin())
        || (ResultRun.EDITED.equals(run.origin()) && run.messageId() == null)) {
      throw QuarryException.badRequest("Field 'run' needs a result_id, a conversation_id and an origin of 'edited'"
          + " (with the message_id of the answer) or 'runner'");
    }
    // Typed, as PostgreSQL cannot infer a SELECT list's parameter types from the columns they fill.
    return results.stored(run.resultId(), userId)
        .compose(stored -> db.run("INSERT INTO result_runs (result_id, conversation_id, origin, message_id, created_at)"
                + " SELECT r.id, r.conversation_id, CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT)"
                + " FROM query_results r WHERE r.id = ? AND r.conversation_id = ? ON CONFLICT (result_id) DO NOTHING",
            run.origin(), run.messageId(), Timestamps.now(), run.resultId(), run.conversationId()))
        .compose(inserted -> db.one("Result not found", "SELECT " + COLUMNS + " FROM result_runs u"
            + " WHERE u.result_id = ? AND u.conversation_id = ?", run.resultId(), run.conversationId()))
        .map(RunStore::run);
  }

  /** Oldest first; none for a conversation that is not the user's. */
  Future<List<ResultRun>> list(ConversationRef ref) {
    String userId = ref.userId();
    String conversationId = ref.conversationId();
    return db.run("SELECT " + COLUMNS + " FROM result_runs u JOIN conversations c ON c.id = u.conversation_id"
            + " WHERE u.conversation_id = ? AND c.user_id = ? ORDER BY u.created_at, u.rowid", conversationId, userId)
        .map(rows -> Db.each(rows, RunStore::run));
  }

  private static ResultRun run(Row row) {
    return new ResultRun(row.getString("result_id"), row.getString("conversation_id"), row.getString("origin"),
        row.getString("message_id"), row.getString("created_at"));
  }
}
