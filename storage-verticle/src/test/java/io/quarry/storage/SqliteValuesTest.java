package io.quarry.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.jdbcclient.spi.JDBCDecoder;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.ServiceLoader;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The JDBC client finds SQLite's value decoder the way it looks for one: by its service file. */
class SqliteValuesTest {

  @TempDir
  Path dir;

  @Test
  @DisplayName("the first JDBCDecoder the class path offers is SqliteValues, which reads each value as SQLite holds it"
      + " without asking the driver to describe its column")
  void found() throws Exception {
    JDBCDecoder decoder = ServiceLoader.load(JDBCDecoder.class).findFirst().orElseThrow();
    assertThat(decoder).isInstanceOf(SqliteValues.class);
    try (Connection conn = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("values.db"));
        Statement s = conn.createStatement()) {
      s.execute("CREATE TABLE t (text_column TEXT, int_column INTEGER, big_column BIGINT)");
      s.execute("INSERT INTO t VALUES ('a', 2, 5000000000), (NULL, NULL, 7), ('3', -1, NULL)");
      List<List<Object>> rows = new ArrayList<>();
      try (ResultSet rs = s.executeQuery("SELECT text_column, int_column, big_column, int_column * 1.5 FROM t"
          + " ORDER BY rowid")) {
        while (rs.next()) {
          List<Object> row = new ArrayList<>();
          for (int i = 1; i <= 4; i++) {
            row.add(decoder.parse(rs, i, column -> {
              throw new AssertionError("asked the driver about column " + column);
            }));
          }
          rows.add(row);
        }
      }
      assertThat(rows).containsExactly(
          Arrays.asList("a", 2, 5_000_000_000L, 3.0),
          Arrays.asList(null, null, 7, null),
          Arrays.asList("3", -1, null, -1.5));
    }
  }
}
