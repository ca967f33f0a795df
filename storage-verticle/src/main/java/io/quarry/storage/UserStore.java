package io.quarry.storage;

import static io.quarry.bus.Keys.required;

import io.quarry.bus.Credentials;
import io.quarry.bus.Keys;
import io.quarry.bus.QuarryException;
import io.quarry.bus.StorageClient;
import io.quarry.bus.Timestamps;
import io.quarry.bus.User;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.SqlResult;
import io.vertx.sqlclient.SqlConnection;

/** Users, sessions and invites. */
final class UserStore {

  private static final String USER_COLUMNS = "id, email, created_at";

  private final Db db;

  UserStore(Db db) {
    this.db = db;
  }

  Future<JsonObject> local(JsonObject body) {
    return db.run("INSERT INTO users (id, is_local, created_at) VALUES (?, 1, ?) ON CONFLICT DO NOTHING", Db.newId(), Timestamps.now())
        .compose(v -> db.one("No local user", "SELECT " + USER_COLUMNS + " FROM users WHERE is_local = 1"))
        .map(row -> user(row).toJson());
  }

  /**
   * A new account, using up its invite. An email that already has an account uses the invite up too and
   * gets the same answer as a used invite, so invites cannot find out which emails have accounts.
   */
  Future<JsonObject> create(JsonObject body) {
    String email = required(body, Keys.EMAIL);
    String hash = required(body, Keys.PASSWORD_HASH);
    String invite = InviteCodes.hash(required(body, Keys.INVITE));
    User user = new User(Db.newId(), email, Timestamps.now());
    return db.tx(conn -> db.exists(conn, "SELECT 1 FROM invites WHERE code_hash = ? AND used_at IS NULL FOR UPDATE", invite)
            .compose(usable -> usable ? db.exists(conn, "SELECT 1 FROM users WHERE email = ?", email)
                .compose(taken -> taken ? useUp(conn, invite, null, user.createdAt()).map(false)
                    : insert(conn, user, hash).compose(v -> useUp(conn, invite, user.id(), user.createdAt())).map(true))
                : Future.succeededFuture(false)))
        .compose(created -> created ? Future.succeededFuture(user.toJson())
            : Future.failedFuture(QuarryException.badRequest(StorageClient.INVITE_REFUSED)));
  }

  /** {@code {usable}}: whether the invite is known and not used yet. */
  Future<JsonObject> checkInvite(JsonObject body) {
    return unused(db.pool(), InviteCodes.hash(required(body, Keys.CODE)))
        .map(usable -> new JsonObject().put(Keys.USABLE, usable));
  }

  /** Unused means never used: deleting the account an invite made does not make the invite new again. */
  private Future<Boolean> unused(SqlClient client, String inviteHash) {
    return db.exists(client, "SELECT 1 FROM invites WHERE code_hash = ? AND used_at IS NULL", inviteHash);
  }

  private Future<Void> insert(SqlConnection conn, User user, String hash) {
    return db.run(conn, "INSERT INTO users (id, email, password_hash, created_at) VALUES (?, ?, ?, ?)",
        user.id(), user.email(), hash, user.createdAt()).mapEmpty();
  }

  private Future<Void> useUp(SqlConnection conn, String inviteHash, String userId, String at) {
    return db.run(conn, "UPDATE invites SET used_by = ?, used_at = ? WHERE code_hash = ?", userId, at, inviteHash)
        .mapEmpty();
  }

  Future<JsonObject> get(JsonObject body) {
    return db.one("User not found", "SELECT " + USER_COLUMNS + " FROM users WHERE id = ?",
        required(body, Keys.USER_ID)).map(row -> user(row).toJson());
  }

  Future<JsonObject> credentials(JsonObject body) {
    return db.one("User not found", "SELECT " + USER_COLUMNS + ", password_hash FROM users WHERE email = ?",
            required(body, Keys.EMAIL))
        .map(row -> new Credentials(user(row), row.getString("password_hash")).toJson());
  }

  Future<JsonObject> createSession(JsonObject body) {
    return db.run("INSERT INTO sessions (token_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)"
            + " ON CONFLICT (token_hash) DO NOTHING",
            required(body, Keys.TOKEN_HASH), required(body, Keys.USER_ID), Timestamps.now(),
            required(body, Keys.EXPIRES_AT))
        .map(v -> new JsonObject());
  }

  Future<JsonObject> findSession(JsonObject body) {
    return db.one("Session not found",
            "SELECT u.id, u.email, u.created_at FROM sessions s JOIN users u ON u.id = s.user_id"
                + " WHERE s.token_hash = ? AND s.expires_at > ?",
            required(body, Keys.TOKEN_HASH), Timestamps.now())
        .map(row -> user(row).toJson());
  }

  /** Expired sessions can never sign anybody in again: they go, rather than pile up for ever. */
  Future<Integer> purgeExpiredSessions() {
    return db.run("DELETE FROM sessions WHERE expires_at <= ?", Timestamps.now()).map(SqlResult::rowCount);
  }

  Future<JsonObject> deleteSession(JsonObject body) {
    return db.run("DELETE FROM sessions WHERE token_hash = ?", required(body, Keys.TOKEN_HASH))
        .map(v -> new JsonObject());
  }

  /** The code is answered once, here; only its hash is kept. */
  Future<JsonObject> createInvite(JsonObject body) {
    String code = InviteCodes.newCode();
    return db.run("INSERT INTO invites (code_hash, created_at) VALUES (?, ?)", InviteCodes.hash(code), Timestamps.now())
        .map(v -> new JsonObject().put(Keys.CODE, code));
  }

  private static User user(Row row) {
    return new User(row.getString("id"), row.getString("email"), row.getString("created_at"));
  }
}
