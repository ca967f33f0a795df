package io.quarry.storage;

import io.quarry.bus.QuarryException;
import io.quarry.bus.Sizes;
import io.vertx.core.Future;
import java.util.HashMap;
import java.util.Map;

/**
 * What one account may pile up: conversations, messages in one conversation, bytes of stored query results.
 * Generous for a person, a wall for a script. The bytes an account stores are summed once, then followed in
 * memory when storage is the database's only writer (SQLite), so that a query of an account at its quota is
 * refused before it runs, at no cost to the others; with several storage nodes (PostgreSQL) they are summed at
 * every check. A query may start while the account is under its quota, so the last result kept can end a little
 * past it.
 */
final class Quotas {

  /**
   * What a stored result weighs: the length of its rows, columns, SQL and note as stored text, which for JSON is about
   * its size in bytes (counted in characters, so that weighing a result costs nothing on the event loop).
   */
  static final String RESULT_BYTES = "LENGTH(r.rows_json) + LENGTH(r.columns_json) + LENGTH(r.sql)"
      + " + COALESCE(LENGTH(r.note), 0)";

  private final Db db;
  private final int conversations;
  private final int messages;
  private final long resultBytes;
  /** Bytes of results each account stores, once summed; only touched on the storage verticle's event loop. */
  private final Map<String, Long> stored = new HashMap<>();
  private final boolean remember;

  /** @param remember whether this storage node is its database's only writer */
  Quotas(Db db, StorageSettings settings, boolean remember) {
    this.remember = remember;
    this.db = db;
    this.conversations = settings.maxConversationsPerUser();
    this.messages = settings.maxMessagesPerConversation();
    this.resultBytes = settings.maxResultBytesPerUser();
  }

  int conversations() {
    return conversations;
  }

  int messages() {
    return messages;
  }

  QuarryException tooManyConversations() {
    return QuarryException.conflict("You have reached the limit of " + String.format("%,d", conversations)
        + " conversations; delete some to start new ones");
  }

  QuarryException tooManyMessages() {
    return QuarryException.conflict("This conversation has reached the limit of " + String.format("%,d", messages)
        + " messages; start a new conversation to go on");
  }

  /** CONFLICT once the account's stored results reached the quota. */
  Future<Void> roomForResults(String userId) {
    Long known = stored.get(userId);
    Future<Long> bytes = known != null ? Future.succeededFuture(known)
        : db.one(ConversationStore.NOT_FOUND, "SELECT COALESCE(SUM(" + RESULT_BYTES + "), 0) FROM query_results r"
            + " JOIN conversations c ON c.id = r.conversation_id WHERE c.user_id = ?", userId)
            .map(row -> remember ? stored.merge(userId, row.getLong(0), (racing, summed) -> racing) : row.getLong(0));
    return bytes.compose(total -> total < resultBytes ? Future.succeededFuture()
        : Future.failedFuture(QuarryException.conflict("Your stored query results have reached the limit of "
            + Sizes.human(resultBytes) + "; delete old conversations to run more queries")));
  }

  /** A result is being saved ({@code bytes} &gt; 0) or was not after all ({@code bytes} &lt; 0). */
  void resultStored(String userId, long bytes) {
    stored.computeIfPresent(userId, (id, total) -> total + bytes);
  }

  /** Something of the account's was deleted: its bytes are summed again when next needed. */
  void freed(String userId) {
    stored.remove(userId);
  }
}
