package io.quarry.storage;

import io.quarry.bus.Failure;
import io.quarry.bus.QuarryException;
import io.quarry.bus.StorageOps;
import io.quarry.bus.StorageOps.ApiToken;
import io.quarry.bus.StorageOps.NewToken;
import io.quarry.bus.StorageOps.TokenHash;
import io.quarry.bus.StorageOps.TokenId;
import io.quarry.bus.StorageOps.TokenInfo;
import io.quarry.bus.StorageOps.TokenUser;
import io.quarry.bus.Timestamps;
import io.quarry.bus.TokenScope;
import io.quarry.bus.User;
import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * API tokens, one user's each (the local user's in {@code auth.mode=local}), for every door that takes them (the
 * bridge, REST, the WebSocket, MCP). Stored as the SHA-256 of the token (256 random bits: nothing to guess from an
 * unsalted fast hash), answered once when made; a revoked one is kept, marked, and finds nobody; an expired one is
 * refused saying when it expired.
 */
final class ApiTokens {

  private static final Logger log = LoggerFactory.getLogger(ApiTokens.class);
  /** How stale a token's {@code last_used_at} may be before a use writes it again: a busy token is not a write a request. */
  static final long LAST_USED_MS = 60_000;

  private final Db db;
  private final UserStore users;

  ApiTokens(Db db, UserStore users) {
    this.db = db;
    this.users = users;
  }

  Future<ApiToken> create(NewToken request) {
    String name;
    String expiresAt;
    try {
      name = name(request.name());
      expiresAt = request.expiresAt() == null ? null : Timestamps.format(Timestamps.parse(request.expiresAt()));
    } catch (QuarryException e) {
      return Future.failedFuture(e);
    } catch (DateTimeException e) {
      return Future.failedFuture(QuarryException.badRequest("Field 'expires_at' must be an ISO-8601 instant"));
    }
    String token = "qt_" + InviteCodes.newCode() + InviteCodes.newCode();
    String id = UUID.randomUUID().toString();
    return userId(request)
        .compose(userId -> db.run("INSERT INTO api_tokens (id, token_hash, user_id, created_at, scope, name, expires_at)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?)", id, InviteCodes.hash(token), userId, Timestamps.now(),
                request.scope().label(), name, expiresAt)
            .map(v -> new ApiToken(id, token, userId)));
  }

  /** Stripped; none when blank; at most {@link StorageOps#TOKEN_NAME_MAX} characters. */
  private static String name(String name) {
    String stripped = name == null ? "" : name.strip();
    if (stripped.length() > StorageOps.TOKEN_NAME_MAX) {
      throw QuarryException.badRequest("A token's name has at most " + StorageOps.TOKEN_NAME_MAX + " characters");
    }
    return stripped.isEmpty() ? null : stripped;
  }

  Future<List<TokenInfo>> list(NewToken whose) {
    return userId(whose).compose(userId -> db.run("SELECT id, name, scope, created_at, last_used_at, expires_at,"
            + " revoked_at FROM api_tokens WHERE user_id = ? ORDER BY created_at, id", userId))
        .map(rows -> {
          List<TokenInfo> tokens = new ArrayList<>();
          rows.forEach(row -> tokens.add(new TokenInfo(row.getString(0), row.getString(1),
              TokenScope.of(row.getString(2)), row.getString(3), row.getString(4), row.getString(5),
              row.getString(6))));
          return tokens;
        });
  }

  /** The user of the request's id, else of its email; with neither, the local user. */
  private Future<String> userId(NewToken whose) {
    if (whose.userId() != null) {
      return Future.succeededFuture(whose.userId());
    }
    return whose.email() == null ? users.local(null).map(User::id)
        : db.one("No user has the email " + whose.email(), "SELECT id FROM users WHERE email = ?", whose.email())
            .map(row -> row.getString(0));
  }

  /** The one look-up of every door: unknown and revoked are NOT_FOUND, expired is UNAUTHORIZED saying when. */
  Future<TokenUser> find(TokenHash token) {
    return db.one("Unknown or revoked token", "SELECT u.id, u.email, u.created_at, t.scope, t.id AS token_id,"
            + " t.expires_at, t.last_used_at FROM api_tokens t JOIN users u ON u.id = t.user_id"
            + " WHERE t.token_hash = ? AND t.revoked_at IS NULL", token.tokenHash())
        .compose(this::live);
  }

  private Future<TokenUser> live(Row row) {
    String now = Timestamps.now();
    String expiresAt = row.getString(5);
    if (expiresAt != null && expiresAt.compareTo(now) <= 0) {
      return Future.failedFuture(new QuarryException(Failure.UNAUTHORIZED,
          "This token expired on " + expiresAt.substring(0, 10)));
    }
    String id = row.getString(4);
    used(id, row.getString(6), now);
    return Future.succeededFuture(new TokenUser(UserStore.user(row), TokenScope.of(row.getString(3)), id));
  }

  /**
   * Notes the use when the stored one is a minute old or more, without the answer waiting for the write; the condition
   * in the statement keeps two uses that both read the old value (two storage nodes) to one change.
   */
  private void used(String id, String lastUsedAt, String now) {
    String due = Timestamps.format(Timestamps.parse(now).minusMillis(LAST_USED_MS));
    if (lastUsedAt != null && lastUsedAt.compareTo(due) > 0) {
      return;
    }
    db.run("UPDATE api_tokens SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at <= ?)",
            now, id, due)
        .onFailure(e -> log.debug("Could not note token {} as used: {}", id, e.getMessage()));
  }

  /** Any token by id (the operator's CLI), or only the named user's (the account page): another's is NOT_FOUND. */
  Future<Void> revoke(TokenId token) {
    String mine = token.userId() == null ? "" : " AND user_id = ?";
    List<Object> which = token.userId() == null ? List.of(token.id()) : List.of(token.id(), token.userId());
    List<Object> update = new ArrayList<>(List.of(Timestamps.now()));
    update.addAll(which);
    return db.run("UPDATE api_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL" + mine, update.toArray())
        .compose(rows -> rows.rowCount() > 0 ? Future.<Void>succeededFuture()
            : db.exists(db.pool(), "SELECT 1 FROM api_tokens WHERE id = ?" + mine, which.toArray())
                .compose(known -> known ? Future.<Void>succeededFuture()
                    : Future.failedFuture(new QuarryException(Failure.NOT_FOUND, "No token has the id " + token.id()))));
  }
}
