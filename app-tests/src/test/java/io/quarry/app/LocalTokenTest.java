package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.bus.Bus;
import io.quarry.bus.Sha256;
import io.quarry.bus.StorageOps;
import io.quarry.bus.StorageOps.NewToken;
import io.quarry.bus.StorageOps.TokenHash;
import io.quarry.bus.Timestamps;
import io.quarry.bus.TokenScope;
import io.quarry.bus.User;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The default server, {@code auth.mode=local}, has tokens too (issue 50): {@code token create} with no {@code --user}
 * makes one for its single user, whose account has no email to name.
 */
class LocalTokenTest {

  @TempDir
  Path dir;

  @Test
  @DisplayName("token create with no --user on a local server makes a token of the local user, the one the browser is")
  void localUsersToken() {
    Map<String, String> env = Map.of("QUARRY_DATA_DIR", dir.toString());
    Path config = dir.resolve("absent-config.json");
    List<String> made = TokenCommand.run(env, "token", "create", "--config", config.toString()).await().lines()
        .toList();
    assertThat(made.get(0)).startsWith("token qt_");
    String token = made.get(0).substring("token ".length());

    List<User> found = StorageCommand.run(env, config, vertx -> {
      Bus bus = new Bus(vertx);
      return StorageOps.TOKEN_FIND.call(bus, new TokenHash(Sha256.hex(token)))
          .compose(owner -> StorageOps.USER_LOCAL.call(bus, null).map(local -> List.of(owner.user(), local)));
    }).await();

    assertThat(found.get(0).id()).isEqualTo(found.get(1).id());
  }

  @Test
  @DisplayName("token list shows the user's tokens, oldest first, with their scope, active or revoked (and when), never"
      + " the token")
  void listed() {
    Map<String, String> env = Map.of("QUARRY_DATA_DIR", dir.toString());
    String config = dir.resolve("absent-config.json").toString();
    assertThat(TokenCommand.run(env, "token", "list", "--config", config).await()).isEqualTo("no tokens");
    List<String> first = TokenCommand.run(env, "token", "create", "--config", config).await().lines().toList();
    List<String> second = TokenCommand.run(env, "token", "create", "--scope", "read", "--config", config).await()
        .lines().toList();
    assertThat(second.get(2)).isEqualTo("scope read");
    String firstId = first.get(1).substring("id ".length());
    TokenCommand.run(env, "token", "revoke", firstId, "--config", config).await();

    List<String> listed = TokenCommand.run(env, "token", "list", "--config", config).await().lines().toList();

    assertThat(listed).hasSize(2);
    assertThat(listed).anySatisfy(line -> assertThat(line).startsWith(firstId + " chat created ")
        .contains(" revoked 20"));
    assertThat(listed).anySatisfy(line -> assertThat(line)
        .matches(second.get(1).substring("id ".length()) + " read created \\S+ last used never expires never active"));
    assertThat(String.join("\n", listed)).doesNotContain(first.get(0).substring("token ".length()));
  }

  @Test
  @DisplayName("token create --name --expires-in-days: the name and the expiry are kept; token list shows name, scope,"
      + " created, last used, expiry and status (active, expired); a bad number of days is refused saying why")
  void namedExpiring() {
    // One connection: the note of the token's use, sent before its look-up answers, is written before what comes next.
    Map<String, String> env = Map.of("QUARRY_DATA_DIR", dir.toString(), "QUARRY_STORAGE_POOL_SIZE", "1");
    Path config = dir.resolve("absent-config.json");
    List<String> made = TokenCommand.run(env, "token", "create", "--name", "nightly export", "--expires-in-days", "30",
        "--scope", "query", "--config", config.toString()).await().lines().toList();
    String id = made.get(1).substring("id ".length());
    Instant expires = Instant.parse(made.get(3).substring("expires ".length()));
    assertThat(expires).isBetween(Instant.now().plus(Duration.ofDays(30)).minusSeconds(60),
        Instant.now().plus(Duration.ofDays(30)));
    assertThat(made.get(4)).isEqualTo("name nightly export");
    String token = made.get(0).substring("token ".length());
    String old = StorageCommand.run(env, config, vertx -> {
      Bus bus = new Bus(vertx);
      return StorageOps.TOKEN_FIND.call(bus, new TokenHash(Sha256.hex(token)))
          .compose(used -> StorageOps.TOKEN_CREATE.call(bus, new NewToken(null, null, TokenScope.READ, "old",
              "2026-01-02T00:00:00.000Z")));
    }).await().id();

    List<String> listed = TokenCommand.run(env, "token", "list", "--config", config.toString()).await().lines()
        .toList();

    assertThat(listed).anySatisfy(line -> assertThat(line).matches(id + " query created \\S+ last used 20\\S+ expires "
        + Timestamps.format(expires) + " active name nightly export"));
    assertThat(listed).anySatisfy(line -> assertThat(line).matches(old + " read created \\S+ last used never expires"
        + " 2026-01-02T00:00:00.000Z expired name old"));
    assertThatThrownBy(() -> TokenCommand.run(env, "token", "create", "--expires-in-days", "0", "--config",
        config.toString()).await()).hasMessage("A token lasts 1 to 3650 days, or never expires");
    assertThatThrownBy(() -> TokenCommand.run(env, "token", "create", "--expires-in-days", "soon", "--config",
        config.toString()).await()).hasMessage("--expires-in-days takes a whole number of days, 1 to 3650");
  }
}
