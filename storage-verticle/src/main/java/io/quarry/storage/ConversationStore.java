package io.quarry.storage;

import static io.quarry.bus.Keys.required;

import io.quarry.bus.Bus;
import io.quarry.bus.Conversation;
import io.quarry.bus.Keys;
import io.quarry.bus.StorageClient;
import io.quarry.bus.Timestamps;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;

/** Conversations, always looked up by id and owner together: another user's id is simply not found. */
final class ConversationStore {

  static final String NOT_FOUND = "Conversation not found";
  private static final String COLUMNS = "id, user_id, title, created_at, updated_at";

  private final Db db;
  private final DatasetLists datasetLists;
  private final Quotas quotas;

  ConversationStore(Db db, DatasetLists datasetLists, Quotas quotas) {
    this.db = db;
    this.datasetLists = datasetLists;
    this.quotas = quotas;
  }

  /** A second delivery of the same request (the id its caller chose) answers the conversation it made. */
  Future<JsonObject> create(JsonObject body) {
    String now = Timestamps.now();
    Conversation created = new Conversation(Db.idOr(body.getString(Keys.ID)), required(body, Keys.USER_ID),
        required(body, Keys.TITLE), now, now);
    return db.tx(conn -> db.run(conn, "SELECT " + COLUMNS + " FROM conversations WHERE id = ? AND user_id = ?",
            created.id(), created.userId())
        .compose(made -> made.size() > 0 ? Future.succeededFuture(conversation(made.iterator().next()).toJson())
            : insert(conn, created)));
  }

  /** The account's row stays locked until the transaction ends, so two creations cannot both pass the cap. */
  private Future<JsonObject> insert(SqlClient conn, Conversation created) {
    return db.one(conn, "User not found", "SELECT id FROM users WHERE id = ? FOR UPDATE", created.userId())
        .compose(locked -> db.one(conn, NOT_FOUND, "SELECT COUNT(*) FROM conversations WHERE user_id = ?",
            created.userId()))
        .compose(count -> count.getLong(0) >= quotas.conversations() ? Future.failedFuture(quotas.tooManyConversations())
            : db.run(conn, "INSERT INTO conversations (id, user_id, title, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
                created.id(), created.userId(), created.title(), created.createdAt(), created.updatedAt()))
        .map(v -> created.toJson());
  }

  Future<JsonObject> list(JsonObject body) {
    return db.run("SELECT " + COLUMNS + " FROM conversations WHERE user_id = ? ORDER BY updated_at DESC, rowid DESC",
            required(body, Keys.USER_ID))
        .map(rows -> {
          JsonArray items = new JsonArray();
          rows.forEach(row -> items.add(conversation(row).toJson()));
          return Bus.items(items);
        });
  }

  /**
   * The user's conversations whose title or any message holds the query (ignoring case), newest first; each with
   * {@code match}, a few words around the first message that holds it (null when only the title does).
   */
  Future<JsonObject> search(JsonObject body) {
    String typed = required(body, Keys.QUERY).strip();
    String query = typed.toLowerCase(java.util.Locale.ROOT);
    String pattern = "%" + query.replace("!", "!!").replace("%", "!%").replace("_", "!_") + "%";
    String hit = "SELECT m.content FROM messages m WHERE m.conversation_id = c.id AND lower(m.content) LIKE ? ESCAPE '!'";
    return db.run("SELECT c.id, c.user_id, c.title, c.created_at, c.updated_at, (" + hit
            + " ORDER BY m.created_at LIMIT 1) AS hit FROM conversations c WHERE c.user_id = ? AND"
            + " (lower(c.title) LIKE ? ESCAPE '!' OR EXISTS (" + hit + ")) ORDER BY c.updated_at DESC, c.rowid DESC LIMIT "
            + StorageClient.SEARCH_LIMIT, pattern, required(body, Keys.USER_ID), pattern, pattern)
        .map(rows -> {
          JsonArray items = new JsonArray();
          rows.forEach(row -> items.add(conversation(row).toJson().put("match",
              Snippet.around(row.getString("hit"), typed))));
          return Bus.items(items);
        });
  }

  Future<JsonObject> get(JsonObject body) {
    return db.one(NOT_FOUND, "SELECT " + COLUMNS + " FROM conversations WHERE id = ? AND user_id = ?",
        required(body, Keys.CONVERSATION_ID), required(body, Keys.USER_ID)).map(row -> conversation(row).toJson());
  }

  Future<JsonObject> rename(JsonObject body) {
    String title = required(body, Keys.TITLE);
    return Db.changed(db.run("UPDATE conversations SET title = ?, updated_at = ? WHERE id = ? AND user_id = ?",
            title, Timestamps.now(), required(body, Keys.CONVERSATION_ID), required(body, Keys.USER_ID)),
        NOT_FOUND).compose(v -> get(body));
  }

  /** Its datasets go with it (foreign keys cascade), so its dataset list goes too. */
  Future<JsonObject> delete(JsonObject body) {
    String conversationId = required(body, Keys.CONVERSATION_ID);
    String userId = required(body, Keys.USER_ID);
    return datasetLists.write(conversationId, () -> Db.changed(db.run("DELETE FROM conversations WHERE id = ? AND"
            + " user_id = ?", conversationId, userId), NOT_FOUND))
        .onSuccess(v -> quotas.freed(userId))
        .map(v -> new JsonObject());
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

  static Future<Void> touch(Db db, SqlClient client, String conversationId, String when) {
    return db.run(client, "UPDATE conversations SET updated_at = ? WHERE id = ?", when, conversationId).mapEmpty();
  }

  private static Conversation conversation(Row row) {
    return new Conversation(row.getString("id"), row.getString("user_id"), row.getString("title"),
        row.getString("created_at"), row.getString("updated_at"));
  }
}
