package io.quarry.storage;

import io.quarry.bus.ChatMessage;
import io.quarry.bus.QuarryException;
import io.quarry.bus.Scopes.ConversationRef;
import io.quarry.bus.StorageOps.AppendMessage;
import io.quarry.bus.StorageOps.InterruptMessage;
import io.quarry.bus.StorageOps.ReopenMessage;
import io.quarry.bus.StorageOps;
import io.quarry.bus.Timestamps;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import java.util.List;
import java.util.Set;

/** Messages of a conversation, in the order they were written. */
final class MessageStore {

  private static final Set<String> ROLES = Set.of(ChatMessage.USER, ChatMessage.ASSISTANT, ChatMessage.TOOL);
  private static final String COLUMNS = "id, conversation_id, role, content, tool_rounds, sql_queries, result_ids,"
      + " charts, input_tokens, output_tokens, status, notice, created_at, numbers";
  /**
   * A streamed answer is saved as it grows: the same id again replaces it, in its own conversation only, while it
   * is still streaming. An answer that has ended is final: a checkpoint delivered late, or twice (a request sent
   * again when a member left, see {@code Failover}), cannot take it back to streaming.
   */
  private static final String UPSERT = "INSERT INTO messages (" + COLUMNS + ", content_folded) VALUES (?, ?, ?, ?, ?,"
      + " ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET content = excluded.content,"
      + " content_folded = excluded.content_folded, tool_rounds = excluded.tool_rounds,"
      + " sql_queries = excluded.sql_queries, result_ids = excluded.result_ids, charts = excluded.charts,"
      + " input_tokens = excluded.input_tokens, output_tokens = excluded.output_tokens, status = excluded.status,"
      + " notice = excluded.notice, numbers = excluded.numbers WHERE messages.conversation_id = excluded.conversation_id"
      + " AND messages.role = excluded.role AND messages.status = '" + ChatMessage.STREAMING + "'";

  private static final String INTERRUPT = "UPDATE messages SET status = ?, notice = ? WHERE id = ? AND conversation_id = ?"
      + " AND role = ? AND status = ?";
  private static final String NEVER_SAVED = "INSERT INTO messages (" + COLUMNS + ", content_folded) VALUES (?, ?, ?, ?,"
      + " ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '') ON CONFLICT (id) DO NOTHING";

  private static final String REOPEN = "UPDATE messages SET status = ? WHERE id = ? AND conversation_id = ? AND role = ?"
      + " AND status = ? AND notice = ?";

  static final String MESSAGE_NOT_FOUND = "Message not found";

  private final Db db;
  private final Quotas quotas;

  MessageStore(Db db, Quotas quotas) {
    this.db = db;
    this.quotas = quotas;
  }

  Future<ChatMessage> append(AppendMessage request) {
    String userId = request.userId();
    ChatMessage m = request.message();
    if (m.conversationId() == null || !ROLES.contains(m.role())) {
      throw QuarryException.badRequest("Field 'message' needs a conversation_id and a role of user, assistant or tool");
    }
    // A caller may name the message beforehand: a streamed answer's id is known before it is stored.
    String id = Db.idOr(m.id());
    ChatMessage stored = new ChatMessage(id, m.conversationId(), m.role(), m.content(), m.toolRounds(),
        m.sql(), m.resultIds(), m.charts(), m.inputTokens(), m.outputTokens(), m.status(), m.notice(), Timestamps.now(),
        m.numbers());
    return db.tx(conn -> ConversationStore.touchOwned(db, conn, userId, stored.conversationId(), stored.createdAt())
        .compose(v -> ChatMessage.USER.equals(stored.role()) ? roomFor(conn, stored.conversationId())
            : Future.succeededFuture())
        .compose(v -> db.run(conn, UPSERT, stored.id(), stored.conversationId(), stored.role(), stored.content(),
            Db.text(stored.toolRounds()), Db.text(stored.sql()), Db.text(stored.resultIds()), Db.text(stored.charts()),
            stored.inputTokens(), stored.outputTokens(), stored.status(), stored.notice(), stored.createdAt(),
            stored.numbers() == null ? null : stored.numbers().encode(), SearchText.fold(stored.content())))
        .map(v -> stored));
  }

  /**
   * An answer its llm node left behind: still streaming, it keeps what it holds and is marked interrupted; never
   * saved (the node died before its first checkpoint), it is kept empty, interrupted; already ended, it stays.
   */
  Future<ChatMessage> interrupt(InterruptMessage request) {
    String userId = request.userId();
    String conversationId = request.conversationId();
    String id = request.messageId();
    String notice = request.notice();
    return db.tx(conn -> ConversationStore.lockOwned(db, conn, userId, conversationId)
        .compose(v -> db.run(conn, INTERRUPT, ChatMessage.INTERRUPTED, notice, id, conversationId,
            ChatMessage.ASSISTANT, ChatMessage.STREAMING))
        .compose(updated -> updated.rowCount() > 0 ? Future.succeededFuture()
            : db.run(conn, NEVER_SAVED, id, conversationId, ChatMessage.ASSISTANT, "", "[]", "[]", "[]", "[]", 0L, 0L,
                ChatMessage.INTERRUPTED, notice, Timestamps.now(), null))
        .compose(v -> db.one(conn, MESSAGE_NOT_FOUND, "SELECT " + COLUMNS + " FROM messages WHERE id = ?"
            + " AND conversation_id = ? AND role = ?", id, conversationId, ChatMessage.ASSISTANT))
        .map(MessageStore::message));
  }

  /**
   * A cut-off answer streams again, to be continued: the upsert replaces only a streaming message, so this is what lets
   * its continuation be saved into it. One already streaming (a second delivery) is answered as it stands.
   */
  Future<ChatMessage> reopen(ReopenMessage request) {
    String conversationId = request.conversationId();
    String id = request.messageId();
    return db.tx(conn -> ConversationStore.lockOwned(db, conn, request.userId(), conversationId)
        .compose(v -> db.run(conn, REOPEN, ChatMessage.STREAMING, id, conversationId, ChatMessage.ASSISTANT,
            ChatMessage.COMPLETE, request.notice()))
        .compose(v -> db.one(conn, MESSAGE_NOT_FOUND, "SELECT " + COLUMNS + " FROM messages WHERE id = ?"
            + " AND conversation_id = ? AND role = ?", id, conversationId, ChatMessage.ASSISTANT))
        .map(MessageStore::message)
        .compose(m -> ChatMessage.STREAMING.equals(m.status()) ? Future.succeededFuture(m)
            : Future.failedFuture(QuarryException.conflict(StorageOps.NOT_CUT_OFF))));
  }

  /** A new question needs room in its conversation; an answer to one already asked is always kept. */
  private Future<Void> roomFor(SqlConnection conn, String conversationId) {
    return db.one(conn, ConversationStore.NOT_FOUND, "SELECT COUNT(*) FROM messages WHERE conversation_id = ?",
            conversationId)
        .compose(count -> count.getLong(0) >= quotas.messages() ? Future.failedFuture(quotas.tooManyMessages())
            : Future.succeededFuture());
  }

  Future<List<ChatMessage>> list(ConversationRef ref) {
    String conversationId = ref.conversationId();
    return ConversationStore.requireOwned(db, db.pool(), ref.userId(), conversationId)
        .compose(v -> db.run("SELECT " + COLUMNS + " FROM messages WHERE conversation_id = ? ORDER BY created_at, rowid",
            conversationId))
        .map(rows -> Db.each(rows, MessageStore::message));
  }

  private static ChatMessage message(Row row) {
    return new ChatMessage(row.getString("id"), row.getString("conversation_id"), row.getString("role"),
        row.getString("content"), Db.array(row, "tool_rounds"), Db.array(row, "sql_queries"),
        Db.array(row, "result_ids"), Db.array(row, "charts"), row.getLong("input_tokens"),
        row.getLong("output_tokens"), row.getString("status"), row.getString("notice"), row.getString("created_at"),
        row.getString("numbers") == null ? null : new JsonObject(row.getString("numbers")));
  }
}
