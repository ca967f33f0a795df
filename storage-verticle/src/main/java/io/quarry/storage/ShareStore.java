package io.quarry.storage;

import io.quarry.bus.BoardOps;
import io.quarry.bus.QuarryException;
import io.quarry.bus.Scopes.UserRef;
import io.quarry.bus.Shares;
import io.quarry.bus.Shares.NewShare;
import io.quarry.bus.Shares.Opened;
import io.quarry.bus.Shares.Share;
import io.quarry.bus.Shares.ShareRef;
import io.quarry.bus.Shares.TokenHash;
import io.quarry.bus.Timestamps;
import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import java.util.List;

/**
 * Share links, each its user's: made (only the token's hash is kept), listed (never the token), revoked (kept, marked)
 * and opened by the token's hash. A user holds at most {@code storage.maxSharesPerUser} live links (neither revoked nor
 * expired): generous for a person, a wall for a script. A share of a deleted conversation goes with it, and a board's
 * with its board ({@link BoardStore#delete}).
 */
final class ShareStore {

  static final String NOT_FOUND = "Share not found";
  private static final String COLUMNS = "s.id, s.kind, s.conversation_id, s.message_id, s.board_id, s.audience,"
      + " s.display_name, COALESCE(c.title, b.title), s.created_at, s.expires_at, s.revoked_at, s.until_at";
  private static final String FROM = " FROM shares s LEFT JOIN conversations c ON c.id = s.conversation_id"
      + " LEFT JOIN boards b ON b.id = s.board_id";

  private final Db db;
  private final int maxLive;

  ShareStore(Db db, int maxLive) {
    this.db = db;
    this.maxLive = maxLive;
  }

  /** In one transaction with the user's row locked, so that two creations cannot both pass the cap. */
  Future<Share> create(NewShare request) {
    return db.tx(conn -> mine(conn, request.userId(), request.id()).compose(made -> made != null
        ? Future.succeededFuture(made) : insert(conn, request)));
  }

  private Future<Share> insert(SqlClient conn, NewShare request) {
    String now = Timestamps.now();
    return db.one(conn, "User not found", "SELECT id FROM users WHERE id = ? FOR UPDATE", request.userId())
        .compose(locked -> target(conn, request))
        .compose(ok -> db.one(conn, NOT_FOUND, "SELECT COUNT(*) FROM shares WHERE user_id = ? AND revoked_at IS NULL"
            + " AND (expires_at IS NULL OR expires_at > ?)", request.userId(), now))
        .compose(count -> count.getLong(0) >= maxLive ? Future.failedFuture(tooMany()) : Future.succeededFuture())
        .compose(room -> db.run(conn, "INSERT INTO shares (id, token_hash, user_id, kind, conversation_id, message_id,"
                + " board_id, audience, display_name, created_at, until_at, expires_at)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            request.id(), request.tokenHash(), request.userId(), request.kind(), request.conversationId(),
            request.messageId(), request.boardId(), request.audience(), request.displayName(), now, now, request.expiresAt()))
        .compose(inserted -> mine(conn, request.userId(), request.id()));
  }

  private QuarryException tooMany() {
    return QuarryException.conflict("You have " + String.format("%,d", maxLive) + " live share links, the most one"
        + " account may have: revoke one to share again");
  }

  /**
   * The user's conversation, and for a message share an answer of it; for a board share the user's board: another
   * user's is NOT_FOUND, as unknown.
   */
  private Future<Void> target(SqlClient conn, NewShare request) {
    if (Shares.BOARD.equals(request.kind())) {
      return db.one(conn, BoardOps.BOARD_NOT_FOUND, "SELECT 1 FROM boards WHERE id = ? AND user_id = ?",
          request.boardId(), request.userId()).mapEmpty();
    }
    if (!Shares.CONVERSATION.equals(request.kind()) && !Shares.MESSAGE.equals(request.kind())) {
      return Future.failedFuture(QuarryException.badRequest("Field 'kind' must be conversation, message or board"));
    }
    Future<Void> conversation = db.one(conn, ConversationStore.NOT_FOUND,
        "SELECT 1 FROM conversations WHERE id = ? AND user_id = ?", request.conversationId(), request.userId())
        .mapEmpty();
    if (!Shares.MESSAGE.equals(request.kind())) {
      return conversation;
    }
    return conversation.compose(ok -> db.one(conn, MessageStore.MESSAGE_NOT_FOUND, "SELECT 1 FROM messages WHERE"
        + " id = ? AND conversation_id = ? AND role = 'assistant'", request.messageId(), request.conversationId()))
        .mapEmpty();
  }

  /** The user's share of this id; null when there is none (a share of this id that is another's is none of theirs). */
  private Future<Share> mine(SqlClient conn, String userId, String id) {
    return db.run(conn, "SELECT " + COLUMNS + FROM + " WHERE s.id = ? AND s.user_id = ?", id, userId)
        .map(rows -> rows.size() == 0 ? null : share(rows.iterator().next()));
  }

  Future<List<Share>> list(UserRef user) {
    return db.run("SELECT " + COLUMNS + FROM + " WHERE s.user_id = ? ORDER BY s.created_at DESC, s.id", user.userId())
        .map(rows -> Db.each(rows, ShareStore::share));
  }

  /** Marks it revoked once; revoking it again changes nothing and answers it as it is. */
  Future<Share> revoke(ShareRef ref) {
    return db.run("UPDATE shares SET revoked_at = ? WHERE id = ? AND user_id = ? AND revoked_at IS NULL",
            Timestamps.now(), ref.id(), ref.userId())
        .compose(updated -> mine(db.pool(), ref.userId(), ref.id()))
        .compose(share -> share != null ? Future.succeededFuture(share)
            : Future.failedFuture(QuarryException.notFound(NOT_FOUND)));
  }

  /** Unknown, revoked, expired, and of a conversation since deleted: the same NOT_FOUND, so that none tells which. */
  Future<Opened> open(TokenHash token) {
    return db.one(Shares.NOT_FOUND, "SELECT " + COLUMNS + ", s.user_id" + FROM + " WHERE s.token_hash = ?"
            + " AND s.revoked_at IS NULL AND (s.expires_at IS NULL OR s.expires_at > ?)", token.tokenHash(),
            Timestamps.now())
        .map(row -> new Opened(share(row), row.getString(12)));
  }

  private static Share share(Row row) {
    return new Share(row.getString(0), row.getString(1), row.getString(2), row.getString(3), row.getString(4),
        row.getString(5), row.getString(6), row.getString(7), row.getString(8), row.getString(9), row.getString(10),
        row.getString(11));
  }
}
