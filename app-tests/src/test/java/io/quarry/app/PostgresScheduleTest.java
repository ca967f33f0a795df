package io.quarry.app;

import io.quarry.testing.PostgresServer;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.SqlClient;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Every {@link ScheduleTest} on a node whose storage is PostgreSQL (issue 52: the scheduler "tested with a clock the
 * test controls, on SQLite and PostgreSQL, with a node killed while it holds a run's lease"): the daily delivery, the
 * node that dies holding the lease, the lease renewed in flight, retries, failures. One server (the JVM's), one database
 * of this class's own; the tests' row counts read that database.
 */
class PostgresScheduleTest extends ScheduleTest {

  private static SqlClient sql;

  /** Hides {@link ScheduleTest#start()}: this class's node alone is started. */
  @BeforeAll
  static void start() {
    PostgresServer postgres = PostgresServer.shared();
    String database = postgres.newDatabase();
    startNode(Map.of("QUARRY_STORAGE_BACKEND", "postgres", "QUARRY_STORAGE_PORT", String.valueOf(postgres.port()),
        "QUARRY_STORAGE_DATABASE", database, "QUARRY_STORAGE_USER", PostgresServer.USER));
    sql = PgBuilder.client().connectingTo(new PgConnectOptions().setHost("127.0.0.1").setPort(postgres.port())
        .setDatabase(database).setUser(PostgresServer.USER)).using(chat.node.vertx()).build();
    count = query -> sql.query(query).execute().await().iterator().next().getLong(0);
  }

  @AfterAll
  static void closeClient() {
    sql.close().await();
  }
}
