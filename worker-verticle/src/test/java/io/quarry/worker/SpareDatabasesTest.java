package io.quarry.worker;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Databases opened before a query needs one, and closed after it no longer does, off its path. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SpareDatabasesTest {

  private final SpareDatabases spares = new SpareDatabases(3);

  @AfterEach
  void close() {
    spares.close();
  }

  @Test
  @DisplayName("the spares are open before anyone asks, each empty, unlocked and with the configured threads")
  void readyBeforeAsked() throws Exception {
    spares.fill().get(30, TimeUnit.SECONDS);
    assertThat(spares.ready()).isEqualTo(SpareDatabases.COUNT);
    try (Connection first = spares.take(); Connection second = spares.take()) {
      assertThat(first).isNotSameAs(second);
      for (Connection database : new Connection[] {first, second}) {
        assertThat(value(database, "SELECT current_setting('threads')")).isEqualTo(3);
        assertThat(value(database, "SELECT count(*) FROM duckdb_tables()")).isZero();
        try (Statement s = database.createStatement()) {
          s.execute("SET enable_external_access = false"); // unlocked: its taker still limits it
        }
      }
    }
  }

  @Test
  @DisplayName("with none ready, a database is opened for the caller at once")
  void noneReady() throws Exception {
    try (Connection database = spares.take()) {
      assertThat(value(database, "SELECT 41 + 1")).isEqualTo(42);
    }
  }

  @Test
  @DisplayName("a database retired is closed by the spares' thread; closing the spares closes those waiting, not those taken")
  void retireAndClose() throws Exception {
    spares.fill().get(30, TimeUnit.SECONDS);
    Connection taken = spares.take();
    Connection used = spares.take();
    spares.retire(used);
    spares.close();
    assertThat(used.isClosed()).isTrue();
    assertThat(spares.ready()).isZero();
    assertThat(value(taken, "SELECT 1")).isEqualTo(1);
    taken.close();
    try (Connection afterwards = spares.take()) {
      assertThat(value(afterwards, "SELECT 2")).isEqualTo(2);
      spares.retire(afterwards);
      assertThat(afterwards.isClosed()).isTrue();
    }
  }

  private static long value(Connection database, String sql) throws SQLException {
    try (Statement s = database.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
