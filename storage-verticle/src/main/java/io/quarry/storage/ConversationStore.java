package io.quarry.storage;

import io.quarry.bus.Conversation;
import io.quarry.bus.QuarryException;
import io.quarry.bus.Scopes.ConversationRef;
import io.quarry.bus.Scopes.UserRef;
import io.quarry.bus.StorageClient;
import io.quarry.bus.StorageOps.Found;
import io.quarry.bus.StorageOps.NewConversation;
import io.quarry.bus.StorageOps.RenameConversation;
import io.quarry.bus.StorageOps.Search;
import io.quarry.bus.Timestamps;
import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import java.util.List;

/** Conversations, always looked up by id and owner together: another user's id is simply not found. */
final class ConversationStore {

  static final String NOT_FOUND = "Conversation not found";
  /** Whoever's conversation has the id: the refusal says no more than that it is taken. */
  static final String ID_TAKEN = "Field 'id' is already in use: choose another UUID";
  private static final String COLUMNS = "id, user_id, title, created_at, updated_at";

  private final Db db;
  private final DatasetLists datasetLists;
  private final Quotas quotas;

  ConversationStore(Db db, DatasetLists datasetLists, Quotas quotas) {
    this.db = db;
    this.datasetLists = datasetLists;
    this.quotas = quotas;
  }

  /**
   * A second delivery of the same request (the id its caller chose) answers the conversation it made. An id another
   * user's conversation has is refused, as {@link #ID_TAKEN} whoever that is: the id is the table's key, so it cannot
   * be made again, and nothing of the other conversation is said.
   */
  Future<Conversation> create(NewConversation request) {
    String now = Timestamps.now();
    Conversation created = new Conversation(Db.idOr(request.id()), request.userId(), request.title(), now, now);
    return db.tx(conn -> made(conn, created)
        .compose(made -> made != null ? Future.succeededFuture(made) : insert(conn, created))
        .compose(inserted -> inserted != null ? Future.succeededFuture(inserted) : madeMeanwhile(conn, created)));
  }

  /** Another transaction made it between the look and the insert (PostgreSQL only: SQLite's hold the one lock). */
  private Future<Conversation> madeMeanwhile(SqlClient conn, Conversation created) {
    return made(conn, created).map(made -> {
      if (made == null) {
        throw QuarryException.conflict(ID_TAKEN);
      }
      return made;
    });
  }

  /** The conversation already made under the id when it is the user's; null when there is none; else ID_TAKEN. */
  private Future<Conversation> made(SqlClient conn, Conversation created) {
    return db.run(conn, "SELECT " + COLUMNS + " FROM conversations WHERE id = ?", created.id()).map(rows -> {
      if (rows.size() == 0) {
        return null;
      }
      Conversation made = conversation(rows.iterator().next());
      if (!made.userId().equals(created.userId())) {
        throw QuarryException.conflict(ID_TAKEN);
      }
      return made;
    });
  }

  /**
   * The account's row stays locked until the transaction ends, so two creations cannot both pass the cap. Null when
   * the id was taken meanwhile ({@code ON CONFLICT DO NOTHING}: a unique violation would be an error logged).
   */
  private Future<Conversation> insert(SqlClient conn, Conversation created) {
    return db.one(conn, "User not found", "SELECT id FROM users WHERE id = ? FOR UPDATE", created.userId())
        .compose(locked -> db.one(conn, NOT_FOUND, "SELECT COUNT(*) FROM conversations WHERE user_id = ?",
            created.userId()))
        .compose(count -> count.getLong(0) >= quotas.conversations() ? Future.failedFuture(quotas.tooManyConversations())
            : db.run(conn, "INSERT INTO conversations (id, user_id, title, title_folded, created_at, updated_at) VALUES"
                + " (?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING", created.id(), created.userId(), created.title(),
                SearchText.fold(created.title()), created.createdAt(), created.updatedAt()))
        .map(inserted -> inserted.rowCount() > 0 ? created : null);
  }

  Future<List<Conversation>> list(UserRef user) {
    return db.run("SELECT " + COLUMNS + " FROM conversations WHERE user_id = ? ORDER BY updated_at DESC, rowid DESC",
            user.userId())
        .map(rows -> Db.each(rows, ConversationStore::conversation));
  }

  /**
   * The user's conversations whose title or any message holds the query (ignoring case and accents, as
   * {@link SearchText} folds them), newest first; each with {@code match}, a few words around the first message that
   * holds it (null when only the title does), cut from the message as written.
   */
  Future<List<Found>> search(Search search) {
    String typed = search.query().strip();
    String query = SearchText.fold(typed);
    String pattern = "%" + query.replace("!", "!!").replace("%", "!%").replace("_", "!_") + "%";
    String hit = "SELECT m.content FROM messages m WHERE m.conversation_id = c.id AND m.content_folded LIKE ? ESCAPE '!'";
    return db.run("SELECT c.id, c.user_id, c.title, c.created_at, c.updated_at, (" + hit
            + " ORDER BY m.created_at LIMIT 1) AS hit FROM conversations c WHERE c.user_id = ? AND"
            + " (c.title_folded LIKE ? ESCAPE '!' OR EXISTS (" + hit + ")) ORDER BY c.updated_at DESC, c.rowid DESC LIMIT "
            + StorageClient.SEARCH_LIMIT, pattern, search.userId(), pattern, pattern)
        .map(rows -> Db.each(rows, row -> new Found(conversation(row),
            Snippet.around(HumanText.of(row.getString("hit")), typed))));
  }

  Future<Conversation> get(ConversationRef ref) {
    return db.one(NOT_FOUND, "SELECT " + COLUMNS + " FROM conversations WHERE id = ? AND user_id = ?",
        ref.conversationId(), ref.userId()).map(ConversationStore::conversation);
  }

  Future<Conversation> rename(RenameConversation rename) {
    return Db.changed(db.run("UPDATE conversations SET title = ?, title_folded = ?, updated_at = ? WHERE id = ? AND"
            + " user_id = ?", rename.title(), SearchText.fold(rename.title()), Timestamps.now(), rename.conversationId(),
            rename.userId()), NOT_FOUND)
        .compose(v -> get(new ConversationRef(rename.userId(), rename.conversationId())));
  }

  /** Its datasets go with it (foreign keys cascade), so its dataset list goes too. */
  Future<Void> delete(ConversationRef ref) {
    return datasetLists.write(ref.conversationId(), () -> Db.changed(db.run("DELETE FROM conversations WHERE id = ? AND"
            + " user_id = ?", ref.conversationId(), ref.userId()), NOT_FOUND))
        .onSuccess(v -> quotas.freed(ref.userId()))
        .mapEmpty();
  }

  /** NOT_FOUND unless the conversation exists and belongs to the user. */
  static Future<Void> requireOwned(Db db, SqlClient client, String userId, String conversationId) {
    return db.one(client, NOT_FOUND, "SELECT 1 FROM conversations WHERE id = ? AND user_id = ?", conversationId, userId)
        .mapEmpty();
  }

  /**
   * As {@link #requireOwned}, in a transaction that then checks and writes what belongs to the conversation (its
   * messages, its datasets): the conversation's row stays locked until it ends, so such transactions take turns.
   */
  static Future<Void> lockOwned(Db db, SqlClient conn, String userId, String conversationId) {
    return db.one(conn, NOT_FOUND, "SELECT 1 FROM conversations WHERE id = ? AND user_id = ? FOR UPDATE", conversationId,
        userId).mapEmpty();
  }

  /**
   * As {@link #lockOwned}, and the conversation marked as written at {@code when}: an update locks the row as the
   * select would, so a message's save (every streaming answer's, every second) takes one statement, with no result to
   * read, where a lock and a touch took two.
   */
  static Future<Void> touchOwned(Db db, SqlClient conn, String userId, String conversationId, String when) {
    return Db.changed(db.run(conn, "UPDATE conversations SET updated_at = ? WHERE id = ? AND user_id = ?", when,
        conversationId, userId), NOT_FOUND);
  }

  private static Conversation conversation(Row row) {
    return new Conversation(row.getString("id"), row.getString("user_id"), row.getString("title"),
        row.getString("created_at"), row.getString("updated_at"));
  }
}
