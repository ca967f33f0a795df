package io.quarry.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.ChatMessage;
import io.quarry.bus.Failure;
import io.quarry.bus.QueryResult;
import io.quarry.bus.RowsJson;
import io.quarry.bus.StorageClient;
import io.quarry.bus.User;
import io.quarry.testing.Failures;
import io.quarry.testing.PostgresServer;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The storage verticle deployed alone over a fresh database, with two signed-up users, Alice and Bob; the
 * client every test calls it through; and what the tests share to check its answers and its database. The
 * database is a SQLite file, or with {@code -Dquarry.storage.backend=postgres} (the build's second run of this
 * suite) a new database on a real PostgreSQL server ({@link PostgresServer}).
 */
@ExtendWith(VertxExtension.class)
abstract class StorageTestBase {

  @TempDir
  Path dataDir;

  static final Dialect BACKEND = "postgres".equals(System.getProperty("quarry.storage.backend"))
      ? Dialect.POSTGRES : Dialect.SQLITE;

  StorageClient storage;
  User alice;
  User bob;
  Vertx vertx;
  /** This test's PostgreSQL database (none with SQLite). */
  String database;

  @BeforeEach
  void deploy(Vertx vertx) {
    this.vertx = vertx;
    if (BACKEND == Dialect.POSTGRES) {
      database = PostgresServer.shared().newDatabase();
    }
    deployStorage(vertx).await();
    storage = new StorageClient(vertx);
    alice = newUser(vertx, "alice@example.com");
    bob = newUser(vertx, "bob@example.com");
  }

  Future<String> deployStorage(Vertx vertx) {
    return vertx.deployVerticle(new StorageVerticle(), new DeploymentOptions().setConfig(config()));
  }

  /** The storage section for this test's database. */
  JsonObject config() {
    JsonObject config = new JsonObject().put("dataDir", dataDir.toString());
    if (BACKEND == Dialect.POSTGRES) {
      config.put("backend", "postgres").put("host", "127.0.0.1").put("port", PostgresServer.shared().port())
          .put("database", database).put("user", PostgresServer.USER);
    }
    return config;
  }

  /** Undeploys storage and deploys it again over the same file, as a server restart does. */
  void restartStorage(Vertx vertx) {
    for (String id : new ArrayList<>(vertx.deploymentIDs())) {
      vertx.undeploy(id).await();
    }
    deployStorage(vertx).await();
  }

  private User newUser(Vertx vertx, String email) {
    String invite = storage.createInvite().await();
    return storage.createUser(email, "hash-of-" + email, invite).await();
  }

  static ReplyException failure(Future<?> future) {
    Throwable t = catchFailure(future);
    assertThat(t).isInstanceOf(ReplyException.class);
    return (ReplyException) t;
  }

  static Throwable catchFailure(Future<?> future) {
    return Failures.failure(future);
  }

  static void assertFails(Future<?> future, Failure code, String message) {
    ReplyException e = failure(future);
    assertThat(Failure.classify(e)).isEqualTo(code);
    assertThat(e.getMessage()).isEqualTo(message);
  }

  Connection sqlite() throws SQLException {
    return DriverManager.getConnection("jdbc:sqlite:" + dataDir.resolve(StorageVerticle.DATABASE_FILE));
  }

  /** The first column of the first row of {@code sql} as a number, run on the database directly; -1 for no row. */
  long count(String sql) throws SQLException {
    Object value = first(sql);
    return value == null ? -1 : ((Number) value).longValue();
  }

  /** The first column of the first row of {@code sql}, run on the database directly; null for no row. */
  Object first(String sql) throws SQLException {
    List<List<Object>> rows = rows(sql);
    return rows.isEmpty() ? null : rows.get(0).get(0);
  }

  /** Every row of {@code sql}, run on the database directly. */
  List<List<Object>> rows(String sql) throws SQLException {
    List<List<Object>> out = new ArrayList<>();
    if (BACKEND == Dialect.POSTGRES) {
      Pool pool = PgBuilder.pool().connectingTo(new PgConnectOptions().setHost("127.0.0.1")
          .setPort(PostgresServer.shared().port()).setDatabase(database).setUser(PostgresServer.USER)).using(vertx)
          .build();
      try {
        for (Row row : pool.query(sql).execute().await()) {
          List<Object> values = new ArrayList<>();
          for (int i = 0; i < row.size(); i++) {
            values.add(row.getValue(i));
          }
          out.add(values);
        }
        return out;
      } finally {
        pool.close().await();
      }
    }
    try (Connection c = sqlite(); ResultSet rs = c.createStatement().executeQuery(sql)) {
      while (rs.next()) {
        List<Object> values = new ArrayList<>();
        for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
          values.add(rs.getObject(i));
        }
        out.add(values);
      }
      return out;
    }
  }

  static ChatMessage answer(String id, String conversationId, String content, String status, String notice) {
    return new ChatMessage(id, conversationId, ChatMessage.ASSISTANT, content, null, null, null, null, 0, 0, status,
        notice, null);
  }

  static QueryResult result(String conversationId, int rows) {
    JsonArray data = new JsonArray();
    for (int i = 0; i < rows; i++) {
      data.add(new JsonArray().add(i).add("row " + i));
    }
    JsonArray columns = new JsonArray()
        .add(new JsonObject().put("name", "n").put("type", "INTEGER"))
        .add(new JsonObject().put("name", "label").put("type", "VARCHAR"));
    return new QueryResult(null, conversationId, "SELECT n, label FROM t", columns, RowsJson.of(data), rows, false, 5,
        null, null);
  }
}
