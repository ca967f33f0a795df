package io.quarry.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.quarry.bus.ChatMessage;
import io.quarry.bus.Conversation;
import io.quarry.testing.PostgresServer;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The database itself: migrations that can run again (and on PostgreSQL, run by exactly one of several storage
 * nodes starting at once), foreign keys, and for SQLite WAL and a place it cannot be written.
 */
class DatabaseTest extends StorageTestBase {

  private String schemaDump() throws SQLException {
    if (BACKEND == Dialect.POSTGRES) {
      return (String) first("SELECT string_agg(table_name || '.' || column_name || ' ' || data_type || ' '"
          + " || is_nullable || ' ' || coalesce(column_default, '') || ' ' || coalesce(collation_name, ''), E'\\n'"
          + " ORDER BY table_name, ordinal_position) FROM information_schema.columns WHERE table_schema = 'public'")
          + first("SELECT string_agg(indexdef, E'\\n' ORDER BY indexname) FROM pg_indexes WHERE schemaname = 'public'");
    }
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
    assertThat(version()).isEqualTo(Migrations.latest(BACKEND));

    restartStorage(vertx);

    assertThat(schemaDump()).isEqualTo(schemaBefore);
    assertThat(version()).isEqualTo(Migrations.latest(BACKEND));
    assertThat(storage.conversation(alice.id(), c.id()).await().title()).isEqualTo("Kept");
    assertThat(count("SELECT COUNT(*) FROM users")).isEqualTo(2);
  }

  private long version() throws SQLException {
    return count(BACKEND == Dialect.POSTGRES ? "SELECT max(version) FROM schema_version" : "PRAGMA user_version");
  }

  @Test
  @DisplayName("PostgreSQL: of several storage nodes starting at once on a new database, exactly one migrates and all"
      + " start")
  void oneMigratesAtOnce(Vertx vertx) throws Exception {
    assumeTrue(BACKEND == Dialect.POSTGRES, "PostgreSQL only");
    database = PostgresServer.shared().newDatabase();
    List<Vertx> nodes = IntStream.range(0, 3).mapToObj(i -> Vertx.vertx()).toList();
    try {
      Future.all(nodes.stream().map(node -> node.deployVerticle(new StorageVerticle(),
          new DeploymentOptions().setConfig(config()))).toList()).await();
      assertThat(count("SELECT count(*) FROM schema_version")).isEqualTo(1);
      assertThat(version()).isEqualTo(Migrations.latest(BACKEND));
    } finally {
      nodes.forEach(node -> node.close().await());
    }
  }

  @Test
  @DisplayName("SQLite runs in WAL mode; foreign keys are enforced")
  void walAndForeignKeys() throws Exception {
    if (BACKEND == Dialect.SQLITE) {
      try (Connection c = sqlite(); ResultSet rs = c.createStatement().executeQuery("PRAGMA journal_mode")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString(1)).isEqualToIgnoringCase("wal");
      }
    }
    Conversation c = storage.createConversation(alice.id(), "Cascade").await();
    storage.appendMessage(alice.id(), ChatMessage.user(c.id(), "hello")).await();
    storage.deleteConversation(alice.id(), c.id()).await();
    assertThat(count("SELECT COUNT(*) FROM messages")).isZero();
  }

  @Test
  @DisplayName("a database in an unwritable place fails deployment with a message naming the file")
  void unwritableDatabase(Vertx vertx) throws Exception {
    assumeTrue(BACKEND == Dialect.SQLITE, "SQLite only");
    Path blocker = dataDir.resolve("not-a-directory");
    java.nio.file.Files.writeString(blocker, "a file where a directory should be");
    Throwable t = catchFailure(vertx.deployVerticle(new StorageVerticle(),
        new DeploymentOptions().setConfig(new JsonObject().put("dataDir", blocker.resolve("sub").toString()))));
    assertThat(t.getMessage()).contains("not-a-directory");
  }

  @Test
  @DisplayName("SQLite: a new data directory is 0700 and the database, its -wal and its -shm 0600, although the umask"
      + " is 022")
  void ownerOnly() throws Exception {
    assumeTrue(BACKEND == Dialect.SQLITE, "SQLite only");
    Path data = dataDir.resolve("new");
    Vertx other = Vertx.vertx();
    try {
      other.deployVerticle(new StorageVerticle(), new DeploymentOptions().setConfig(new JsonObject()
          .put("dataDir", data.toString()))).await();

      assertThat(mode(data)).isEqualTo("rwx------");
      for (String name : List.of("quarry.db", "quarry.db-wal", "quarry.db-shm")) {
        assertThat(mode(data.resolve(name))).as(name).isEqualTo("rw-------");
      }
    } finally {
      other.close().await();
    }
  }

  private static String mode(Path path) throws java.io.IOException {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
  }
}
