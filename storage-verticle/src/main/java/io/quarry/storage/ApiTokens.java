package io.quarry.storage;

import io.quarry.bus.Failure;
import io.quarry.bus.QuarryException;
import io.quarry.bus.StorageOps.ApiToken;
import io.quarry.bus.StorageOps.NewToken;
import io.quarry.bus.StorageOps.TokenInfo;
import io.quarry.bus.StorageOps.TokenUser;
import io.quarry.bus.TokenScope;
import io.quarry.bus.StorageOps.TokenHash;
import io.quarry.bus.StorageOps.TokenId;
import io.quarry.bus.Timestamps;
import io.quarry.bus.User;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * API tokens of the event-bus bridge, one user's each (the local user's in {@code auth.mode=local}). Stored as the SHA-256 of the token (256 random bits: nothing to
 * guess from an unsalted fast hash), answered once when made; a revoked one is kept, marked, and finds nobody.
 */
final class ApiTokens {

  private final Db db;
  private final UserStore users;

  ApiTokens(Db db, UserStore users) {
    this.db = db;
    this.users = users;
  }

  Future<ApiToken> create(NewToken request) {
    String token = "qt_" + InviteCodes.newCode() + InviteCodes.newCode();
    String id = UUID.randomUUID().toString();
    return userId(request)
        .compose(userId -> db.run("INSERT INTO api_tokens (id, token_hash, user_id, created_at, scope)"
                + " VALUES (?, ?, ?, ?, ?)", id, InviteCodes.hash(token), userId, Timestamps.now(), request.scope().label())
            .map(v -> new ApiToken(id, token, userId)));
  }

  Future<List<TokenInfo>> list(NewToken whose) {
    return userId(whose).compose(userId -> db.run("SELECT id, scope, created_at, revoked_at FROM api_tokens"
            + " WHERE user_id = ? ORDER BY created_at, id", userId))
        .map(rows -> {
          List<TokenInfo> tokens = new ArrayList<>();
          rows.forEach(row -> tokens.add(new TokenInfo(row.getString(0), TokenScope.of(row.getString(1)),
              row.getString(2), row.getString(3))));
          return tokens;
        });
  }

  /** The user of the request's email; with none, the local user. */
  private Future<String> userId(NewToken whose) {
    return whose.email() == null ? users.local(null).map(User::id)
        : db.one("No user has the email " + whose.email(), "SELECT id FROM users WHERE email = ?", whose.email())
            .map(row -> row.getString(0));
  }

  Future<TokenUser> find(TokenHash token) {
    return db.one("Unknown or revoked token", "SELECT u.id, u.email, u.created_at, t.scope FROM api_tokens t"
            + " JOIN users u ON u.id = t.user_id WHERE t.token_hash = ? AND t.revoked_at IS NULL", token.tokenHash())
        .map(row -> new TokenUser(UserStore.user(row), TokenScope.of(row.getString(3))));
  }

  Future<Void> revoke(TokenId token) {
    return db.run("UPDATE api_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL", Timestamps.now(),
            token.id())
        .compose(rows -> rows.rowCount() > 0 ? Future.<Void>succeededFuture()
            : db.exists(db.pool(), "SELECT 1 FROM api_tokens WHERE id = ?", token.id())
                .compose(known -> known ? Future.<Void>succeededFuture()
                    : Future.failedFuture(new QuarryException(Failure.NOT_FOUND, "No token has the id " + token.id()))));
  }
}
