package io.quarry.storage;

import io.quarry.bus.Credentials;
import io.quarry.bus.QuarryException;
import io.quarry.bus.Scopes.UserRef;
import io.quarry.bus.StorageClient;
import io.quarry.bus.StorageOps.Email;
import io.quarry.bus.StorageOps.Invite;
import io.quarry.bus.StorageOps.InviteState;
import io.quarry.bus.StorageOps.NewSession;
import io.quarry.bus.StorageOps.NewUser;
import io.quarry.bus.StorageOps.SessionRef;
import io.quarry.bus.Timestamps;
import io.quarry.bus.User;
import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.SqlResult;

/** Users, sessions and invites. */
final class UserStore {

  private static final String USER_COLUMNS = "id, email, created_at";

  private final Db db;

  UserStore(Db db) {
    this.db = db;
  }

  Future<User> local(Void none) {
    return db.run("INSERT INTO users (id, is_local, created_at) VALUES (?, 1, ?) ON CONFLICT DO NOTHING", Db.newId(), Timestamps.now())
        .compose(v -> db.one("No local user", "SELECT " + USER_COLUMNS + " FROM users WHERE is_local = 1"))
        .map(UserStore::user);
  }

  /**
   * A new account, using up its invite. An email that already has an account uses the invite up too and
   * gets the same answer as a used invite, so invites cannot find out which emails have accounts.
   */
  Future<User> create(NewUser request) {
    String email = request.email();
    String hash = request.passwordHash();
    String invite = InviteCodes.hash(request.invite());
    User user = new User(Db.newId(), email, Timestamps.now());
    return db.tx(conn -> db.exists(conn, "SELECT 1 FROM invites WHERE code_hash = ? AND used_at IS NULL FOR UPDATE", invite)
            .compose(usable -> usable ? db.exists(conn, "SELECT 1 FROM users WHERE email = ?", email)
                .compose(taken -> taken ? useUp(conn, invite, null, user.createdAt()).map(false)
                    : insert(conn, user, hash).compose(v -> useUp(conn, invite, user.id(), user.createdAt())).map(true))
                : Future.succeededFuture(false)))
        .compose(created -> created ? Future.succeededFuture(user)
            : Future.failedFuture(QuarryException.badRequest(StorageClient.INVITE_REFUSED)));
  }

  /** Whether the invite is known and not used yet. */
  Future<InviteState> checkInvite(Invite invite) {
    return unused(db.pool(), InviteCodes.hash(invite.code())).map(InviteState::new);
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

  Future<User> get(UserRef ref) {
    return db.one("User not found", "SELECT " + USER_COLUMNS + " FROM users WHERE id = ?", ref.userId())
        .map(UserStore::user);
  }

  Future<Credentials> credentials(Email email) {
    return db.one("User not found", "SELECT " + USER_COLUMNS + ", password_hash FROM users WHERE email = ?",
            email.email())
        .map(row -> new Credentials(user(row), row.getString("password_hash")));
  }

  Future<Void> createSession(NewSession session) {
    return db.run("INSERT INTO sessions (token_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)"
            + " ON CONFLICT (token_hash) DO NOTHING",
            session.tokenHash(), session.userId(), Timestamps.now(), session.expiresAt())
        .mapEmpty();
  }

  Future<User> findSession(SessionRef session) {
    return db.one("Session not found",
            "SELECT u.id, u.email, u.created_at FROM sessions s JOIN users u ON u.id = s.user_id"
                + " WHERE s.token_hash = ? AND s.expires_at > ?",
            session.tokenHash(), Timestamps.now())
        .map(UserStore::user);
  }

  /** Expired sessions can never sign anybody in again: they go, rather than pile up for ever. */
  Future<Integer> purgeExpiredSessions() {
    return db.run("DELETE FROM sessions WHERE expires_at <= ?", Timestamps.now()).map(SqlResult::rowCount);
  }

  Future<Void> deleteSession(SessionRef session) {
    return db.run("DELETE FROM sessions WHERE token_hash = ?", session.tokenHash()).mapEmpty();
  }

  /** The code is answered once, here; only its hash is kept. */
  Future<Invite> createInvite(Void none) {
    String code = InviteCodes.newCode();
    return db.run("INSERT INTO invites (code_hash, created_at) VALUES (?, ?)", InviteCodes.hash(code), Timestamps.now())
        .map(v -> new Invite(code));
  }

  static User user(Row row) {
    return new User(row.getString("id"), row.getString("email"), row.getString("created_at"));
  }
}
