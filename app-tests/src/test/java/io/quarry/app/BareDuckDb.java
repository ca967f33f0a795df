package io.quarry.app;

import io.quarry.testing.ParquetFixtures;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * DuckDB over a local file in the test's own process: what Quarry's answers are compared with. One database serves
 * every comparison (one each would cost more than the statements).
 */
final class BareDuckDb {

  private static Connection shared;

  /** Where a statement names the table; replaced by the file here, by the table's name in Quarry. */
  static final String TABLE = "{table}";
  /** The rows, counted: DuckDB reads the footer alone. */
  static final String COUNT = "SELECT count(*) AS n FROM " + TABLE;
  /** Every row, as text, in a digest that does not depend on the order rows come in. */
  static final String WHOLE_ROWS = "SELECT count(*) AS n, md5(coalesce(string_agg(r, chr(30) ORDER BY r), ''))"
      + " AS digest FROM (SELECT CAST(x AS VARCHAR) AS r FROM " + TABLE + " AS x)";

  private BareDuckDb() {
  }

  /** One column's values (their count and a digest of them as text), in any order. */
  static String column(String name) {
    String c = "\"" + name.replace("\"", "\"\"") + "\"";
    return "SELECT count(" + c + ") AS n, md5(coalesce(string_agg(CAST(" + c + " AS VARCHAR), chr(30) ORDER BY CAST("
        + c + " AS VARCHAR)), '')) AS digest FROM " + TABLE;
  }

  /** DESCRIBE's columns as {@code [{name, type}]}, or why DuckDB could not open the file. */
  record Described(List<JsonObject> columns, String failure) {
  }

  /** A statement's first row, or why it failed. */
  record Answer(JsonArray row, String failure) {
  }

  private static synchronized Statement statement() throws SQLException {
    if (shared == null) {
      shared = DriverManager.getConnection("jdbc:duckdb:");
    }
    return shared.createStatement();
  }

  static Path write(Path file, String select) {
    return write(file, select, "");
  }

  /** {@code options}: more of COPY's Parquet options, each after a comma. */
  static Path write(Path file, String select, String options) {
    ParquetFixtures.create(file, select, options);
    return file;
  }

  static Described describe(Path file) {
    List<JsonObject> columns = new ArrayList<>();
    try (Statement s = statement();
         ResultSet rs = s.executeQuery("SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet("
             + literal(file.toString()) + "))")) {
      while (rs.next()) {
        columns.add(new JsonObject().put("name", rs.getString(1)).put("type", rs.getString(2)));
      }
      return new Described(columns, null);
    } catch (SQLException e) {
      return new Described(List.of(), String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
    }
  }

  static Answer answer(Path file, String sql) {
    return run(sql.replace(TABLE, "read_parquet(" + literal(file.toString()) + ")"));
  }

  private static Answer run(String sql) {
    try (Statement s = statement(); ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      JsonArray row = new JsonArray();
      for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
        row.add(rs.getObject(i));
      }
      return new Answer(row, null);
    } catch (SQLException e) {
      return new Answer(null, String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
    }
  }

  static String literal(String text) {
    return "'" + text.replace("'", "''") + "'";
  }
}
