package io.quarry.worker;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Which columns the guard says a statement can touch: those it names, or all of them when it cannot tell. */
class ReadsTest {

  private static final List<String> T = List.of("id", "Na me", "MiXed", "st", "t");
  private static Connection connection;
  private static PreparedStatement serializer;

  @BeforeAll
  static void open() throws Exception {
    connection = DriverManager.getConnection("jdbc:duckdb:");
    serializer = connection.prepareStatement(SqlGuard.SERIALIZE);
  }

  @AfterAll
  static void close() throws Exception {
    connection.close();
  }

  private static List<String> columns(String sql) throws Exception {
    Reads reads = SqlGuard.check(serializer, sql, Set.of("t", "u"));
    return reads.columnsOf(T).stream().mapToObj(T::get).toList();
  }

  @Test
  @DisplayName("named columns, whatever their case or quoting, and struct fields by their column")
  void named() throws Exception {
    assertThat(columns("SELECT \"na me\", max(MIXED) FROM t GROUP BY 1")).containsExactly("Na me", "MiXed");
    assertThat(columns("SELECT st.k FROM t WHERE id > 3")).containsExactly("id", "st");
    assertThat(columns("SELECT count(*) FROM t")).isEmpty();
  }

  @Test
  @DisplayName("USING lists count as reads; NATURAL joins, stars, COLUMNS() and whole-row references read all")
  void implicit() throws Exception {
    assertThat(columns("SELECT count(*) FROM t JOIN u USING (id)")).containsExactly("id");
    assertThat(columns("SELECT count(*) FROM t NATURAL JOIN u")).isEqualTo(T);
    assertThat(columns("SELECT * EXCLUDE (id) FROM t")).isEqualTo(T);
    assertThat(columns("SELECT COLUMNS('i.*') FROM t")).isEqualTo(T);
    assertThat(columns("SELECT x FROM t AS x")).isEqualTo(T);
    assertThat(columns("WITH c AS (SELECT id FROM t) SELECT c FROM c")).isEqualTo(T);
  }

  @Test
  @DisplayName("DESCRIBE reads a table's footer, none of its columns, whatever is selected of it; a star elsewhere in"
      + " the statement still reads all")
  void describe() throws Exception {
    assertThat(SqlGuard.check(serializer, "SELECT column_name, column_type FROM (DESCRIBE t)", Set.of("t", "u"))
        .tables()).containsExactly("t");
    assertThat(columns("SELECT column_name, column_type FROM (DESCRIBE t) LIMIT 1000 OFFSET 0")).isEmpty();
    assertThat(columns("SELECT * FROM (DESCRIBE SELECT * FROM t)")).isEmpty();
    assertThat(columns("SELECT * FROM (DESCRIBE t) WHERE column_name IN (SELECT st FROM t)")).containsExactly("st");
    assertThat(columns("SELECT * FROM (DESCRIBE t) WHERE column_name IN (SELECT * FROM t)")).isEqualTo(T);
  }

  @Test
  @DisplayName("a column named like a table is read by name, not taken for a whole row")
  void columnNamedLikeATable() throws Exception {
    assertThat(columns("SELECT t.t FROM t")).containsExactly("t");
  }
}
