package io.quarry.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.Failure;
import io.quarry.bus.Sha256;
import io.quarry.bus.StorageOps.ApiToken;
import io.quarry.bus.StorageOps.NewToken;
import io.quarry.bus.StorageOps.TokenInfo;
import io.quarry.bus.Timestamps;
import io.quarry.bus.TokenScope;
import io.vertx.core.json.JsonObject;
import java.sql.Connection;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Personal access tokens (issue 50, item 2): a name, an expiry, when last used (at most a write a minute), and revoking
 * one's own only.
 */
class ApiTokensTest extends StorageTestBase {

  /**
   * One connection: the note of a use, sent before the look-up answers, runs before anything the test asks after the
   * answer, so the test reads it without waiting for it.
   */
  @Override
  JsonObject config() {
    return super.config().put("poolSize", 1);
  }

  private TokenInfo only(String userId) {
    List<TokenInfo> tokens = storage.tokens(userId).await();
    assertThat(tokens).hasSize(1);
    return tokens.get(0);
  }

  private void setLastUsed(String id, Instant at) throws Exception {
    String sql = "UPDATE api_tokens SET last_used_at = '" + Timestamps.format(at) + "' WHERE id = '" + id + "'";
    if (BACKEND == Dialect.POSTGRES) {
      rows(sql);
      return;
    }
    try (Connection c = sqlite()) {
      c.createStatement().executeUpdate(sql);
    }
  }

  @Test
  @DisplayName("a token keeps its name, scope and expiry; a name is stripped and at most 100 characters")
  void namedAndExpiring() {
    String expires = Timestamps.format(Instant.now().plusSeconds(7 * 86_400));
    storage.createToken(NewToken.of(alice.id(), TokenScope.READ, "  laptop script ", expires)).await();

    TokenInfo info = only(alice.id());
    assertThat(info.name()).isEqualTo("laptop script");
    assertThat(info.scope()).isEqualTo(TokenScope.READ);
    assertThat(info.expiresAt()).isEqualTo(expires);
    assertThat(info.lastUsedAt()).isNull();
    assertThat(info.status(Timestamps.now())).isEqualTo("active");
    assertFails(storage.createToken(NewToken.of(alice.id(), TokenScope.READ, "x".repeat(101), null)),
        Failure.BAD_REQUEST, "A token's name has at most 100 characters");
  }

  @Test
  @DisplayName("an expired token finds nobody: UNAUTHORIZED 'This token expired on <date>', and it lists as expired")
  void expired() {
    Instant past = Instant.parse("2026-01-02T03:04:05Z");
    ApiToken token = storage.createToken(NewToken.of(alice.id(), TokenScope.CHAT, null,
        Timestamps.format(past))).await();

    assertFails(storage.tokenUser(Sha256.hex(token.token())), Failure.UNAUTHORIZED,
        "This token expired on 2026-01-02");
    assertThat(only(alice.id()).status(Timestamps.now())).isEqualTo("expired");
    assertThat(only(alice.id()).lastUsedAt()).as("a refused use is no use").isNull();
  }

  @Test
  @DisplayName("a use notes last_used_at, but at most once a minute: a use 30 s after the noted one writes nothing, one"
      + " 61 s after writes now")
  void lastUsed() throws Exception {
    ApiToken token = storage.createToken(NewToken.of(alice.id(), TokenScope.CHAT, null, null)).await();
    String hash = Sha256.hex(token.token());

    assertThat(storage.tokenUser(hash).await().tokenId()).isEqualTo(token.id());
    String first = only(alice.id()).lastUsedAt();
    assertThat(first).isNotNull();
    assertThat(Timestamps.parse(first)).isBetween(Instant.now().minusSeconds(10), Instant.now());

    Instant recent = Instant.now().minusSeconds(30);
    setLastUsed(token.id(), recent);
    storage.tokenUser(hash).await();
    assertThat(only(alice.id()).lastUsedAt()).isEqualTo(Timestamps.format(recent));

    Instant stale = Instant.now().minusSeconds(61);
    setLastUsed(token.id(), stale);
    storage.tokenUser(hash).await();
    assertThat(Timestamps.parse(only(alice.id()).lastUsedAt())).isAfter(stale.plusSeconds(60));
  }

  @Test
  @DisplayName("a user revokes their own token; another user's is NOT_FOUND, as an unknown one, and keeps working")
  void revokeOwnOnly() {
    ApiToken alices = storage.createToken(NewToken.of(alice.id(), TokenScope.CHAT, "a", null)).await();

    assertFails(storage.revokeToken(alices.id(), bob.id()), Failure.NOT_FOUND, "No token has the id " + alices.id());
    assertThat(storage.tokenUser(Sha256.hex(alices.token())).await().user().id()).isEqualTo(alice.id());
    storage.revokeToken(alices.id(), alice.id()).await();
    assertFails(storage.tokenUser(Sha256.hex(alices.token())), Failure.NOT_FOUND, "Unknown or revoked token");
    assertThat(only(alice.id()).status(Timestamps.now())).isEqualTo("revoked");
  }
}
