package io.quarry.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.ChatMessage;
import io.quarry.bus.Conversation;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The SQLite file itself: migrations that can run again, WAL with foreign keys, a place it cannot be written. */
class DatabaseTest extends StorageTestBase {

  private String schemaDump() throws SQLException {
    StringBuilder out = new StringBuilder();
    try (Connection c = sqlite();
         ResultSet rs = c.createStatement().executeQuery("SELECT type, name, sql FROM sqlite_master ORDER BY name")) {
      while (rs.next()) {
        out.append(rs.getString(1)).append(' ').append(rs.getString(2)).append(' ').append(rs.getString(3)).append('\n');
      }
    }
    return out.toString();
  }

  @Test
  @DisplayName("migrations run again on a migrated file change neither schema nor data")
  void migrationsAreIdempotent(Vertx vertx) throws Exception {
    Conversation c = storage.createConversation(alice.id(), "Kept").await();
    String schemaBefore = schemaDump();
    assertThat(count("PRAGMA user_version")).isEqualTo(Migrations.latest());

    restartStorage(vertx);

    assertThat(schemaDump()).isEqualTo(schemaBefore);
    assertThat(count("PRAGMA user_version")).isEqualTo(Migrations.latest());
    assertThat(storage.conversation(alice.id(), c.id()).await().title()).isEqualTo("Kept");
    assertThat(count("SELECT COUNT(*) FROM users")).isEqualTo(2);
  }

  @Test
  @DisplayName("the database runs in WAL mode with foreign keys enforced")
  void walAndForeignKeys() throws Exception {
    try (Connection c = sqlite(); ResultSet rs = c.createStatement().executeQuery("PRAGMA journal_mode")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString(1)).isEqualToIgnoringCase("wal");
    }
    Conversation c = storage.createConversation(alice.id(), "Cascade").await();
    storage.appendMessage(alice.id(), ChatMessage.user(c.id(), "hello")).await();
    storage.deleteConversation(alice.id(), c.id()).await();
    assertThat(count("SELECT COUNT(*) FROM messages")).isZero();
  }

  @Test
  @DisplayName("a database in an unwritable place fails deployment with a message naming the file")
  void unwritableDatabase(Vertx vertx) throws Exception {
    Path blocker = dataDir.resolve("not-a-directory");
    java.nio.file.Files.writeString(blocker, "a file where a directory should be");
    Throwable t = catchFailure(vertx.deployVerticle(new StorageVerticle(),
        new DeploymentOptions().setConfig(new JsonObject().put("dataDir", blocker.resolve("sub").toString()))));
    assertThat(t.getMessage()).contains("not-a-directory");
  }
}
