package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.Bus;
import io.quarry.bus.Sha256;
import io.quarry.bus.StorageOps;
import io.quarry.bus.StorageOps.TokenHash;
import io.quarry.bus.User;
import java.nio.file.Path;
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
        .matches(second.get(1).substring("id ".length()) + " read created \\S+ active"));
    assertThat(String.join("\n", listed)).doesNotContain(first.get(0).substring("token ".length()));
  }
}
