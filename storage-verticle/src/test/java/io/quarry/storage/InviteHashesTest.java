package io.quarry.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.Failure;
import io.quarry.testing.PostgresServer;
import io.vertx.core.Vertx;
import java.nio.file.Files;
import java.util.ArrayList;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Invites are kept as the SHA-256 of their code, as session tokens are (security issue, item 2): whoever reads the
 * database ({@code SELECT * FROM invites}) finds no code that signs up.
 */
class InviteHashesTest extends StorageTestBase {

  private String invites() throws Exception {
    return rows("SELECT * FROM invites").toString();
  }

  @Test
  @DisplayName("a new invite is stored as the SHA-256 of its code: the code is nowhere in the invites table, and it"
      + " signs up once")
  void storedAsHash() throws Exception {
    String code = storage.createInvite().await();

    assertThat(invites()).doesNotContain(code).contains(InviteCodes.hash(code));
    assertThat(InviteCodes.hash(code)).hasSize(64).isNotEqualTo(code);
    assertThat(storage.inviteUsable(code).await()).isTrue();
    assertThat(storage.inviteUsable(InviteCodes.hash(code)).await()).as("the stored hash is no invite").isFalse();
    storage.createUser("carol@example.com", "h", code).await();
    assertFails(storage.createUser("dave@example.com", "h", code), Failure.BAD_REQUEST,
        "Invalid or already used invite");
  }

  @Test
  @DisplayName("a database of the version before holds its invites in plaintext: migrating it rewrites them as hashes;"
      + " the unused one still signs up with its code, the used one stays used")
  void plaintextInvitesMigrated(Vertx vertx) throws Exception {
    for (String id : new ArrayList<>(vertx.deploymentIDs())) {
      vertx.undeploy(id).await();
    }
    dataDir = Files.createDirectories(dataDir.resolve("older"));
    if (BACKEND == Dialect.POSTGRES) {
      database = PostgresServer.shared().newDatabase();
    }
    Db older = StorageVerticle.connect(vertx, StorageSettings.from(config()));
    Migrations.apply(older, versionBeforeHashes()).await();
    older.run("INSERT INTO invites (code, created_at) VALUES (?, ?), (?, ?)", "0123456789abcdef0123456789abcdef",
        "2025-01-01T00:00:00Z", "fedcba9876543210fedcba9876543210", "2025-01-01T00:00:00Z").await();
    older.run("UPDATE invites SET used_at = ? WHERE code = ?", "2025-01-02T00:00:00Z",
        "fedcba9876543210fedcba9876543210").await();
    older.close().await();
    assertThat(invites()).contains("0123456789abcdef0123456789abcdef");

    deployStorage(vertx).await();

    assertThat(invites()).doesNotContain("0123456789abcdef0123456789abcdef")
        .doesNotContain("fedcba9876543210fedcba9876543210")
        .contains(InviteCodes.hash("0123456789abcdef0123456789abcdef"));
    assertThat(storage.inviteUsable("fedcba9876543210fedcba9876543210").await()).isFalse();
    assertThat(storage.inviteUsable("0123456789abcdef0123456789abcdef").await()).isTrue();
    assertThat(storage.createUser("erin@example.com", "h", "0123456789abcdef0123456789abcdef").await().email())
        .isEqualTo("erin@example.com");
    assertThat(storage.inviteUsable("0123456789abcdef0123456789abcdef").await()).isFalse();
  }

  /** The version whose invites table still held codes: the one before the migration that hashes them. */
  private static int versionBeforeHashes() {
    for (int i = 0; i < BACKEND.migrations.size(); i++) {
      if (BACKEND.migrations.get(i).script().endsWith("__invite_hashes.sql")) {
        return i;
      }
    }
    throw new AssertionError("no invite_hashes migration");
  }
}
