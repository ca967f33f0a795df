package io.quarry.testing;

import io.vertx.core.json.JsonArray;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** What bare DuckDB answers a statement, in a database of its own: the baseline a test compares Quarry's rows with. */
public final class DuckRows {

  private DuckRows() {
  }

  /**
   * Every row as a JSON array: whole numbers as longs (as a Quarry result's decode to, whatever their width), other
   * numbers as they are, everything else as its text.
   */
  public static JsonArray of(String sql) throws SQLException {
    JsonArray rows = new JsonArray();
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      int width = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        JsonArray row = new JsonArray();
        for (int i = 1; i <= width; i++) {
          row.add(value(rs.getObject(i)));
        }
        rows.add(row);
      }
    }
    return rows;
  }

  private static Object value(Object value) {
    if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte
        || value instanceof java.math.BigInteger) {
      return ((Number) value).longValue();
    }
    return value == null || value instanceof Number ? value : value.toString();
  }
}
