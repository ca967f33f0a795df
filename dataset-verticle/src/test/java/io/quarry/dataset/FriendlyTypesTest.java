package io.quarry.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every type DuckDB writes to Parquet, read back as DuckDB reads it (the schema a user and the model see is the
 * engine's), and its friendly type.
 */
class FriendlyTypesTest {

  @TempDir
  Path dir;

  /** Column → "DuckDB's type | friendly type", for a Parquet file DuckDB wrote of {@code select}. */
  private Map<String, String> described(String select) throws SQLException {
    Path file = dir.resolve("t.parquet");
    Map<String, String> types = new LinkedHashMap<>();
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
      s.execute("COPY (" + select + ") TO '" + file + "' (FORMAT PARQUET)");
      try (ResultSet rs = s.executeQuery("SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM '" + file
          + "')")) {
        while (rs.next()) {
          types.put(rs.getString(1), rs.getString(2) + " | " + FriendlyTypes.of(rs.getString(2)));
        }
      }
    }
    return types;
  }

  @Test
  @DisplayName("numbers: every integer width, signed or not, is an Integer; floats, doubles and decimals of every"
      + " physical width are Decimals")
  void numbers() throws SQLException {
    assertThat(described("SELECT 1::TINYINT a, 2::SMALLINT b, 3::INTEGER c, 4::BIGINT d, 5::UTINYINT e,"
        + " 6::USMALLINT f, 7::UINTEGER g, 8::UBIGINT h, 9::HUGEINT i, 1.5::FLOAT j, 2.5::DOUBLE k,"
        + " 3.25::DECIMAL(4,2) l, 3.25::DECIMAL(12,2) m, 3.25::DECIMAL(30,2) n").values()).containsExactly(
        "TINYINT | Integer", "SMALLINT | Integer", "INTEGER | Integer", "BIGINT | Integer", "UTINYINT | Integer",
        "USMALLINT | Integer", "UINTEGER | Integer", "UBIGINT | Integer", "DOUBLE | Decimal", "FLOAT | Decimal",
        "DOUBLE | Decimal", "DECIMAL(4,2) | Decimal", "DECIMAL(12,2) | Decimal", "DECIMAL(30,2) | Decimal");
  }

  @Test
  @DisplayName("time: dates, times of day and timestamps of every unit and zone are Date, Time and Timestamp; an"
      + " interval is an Interval")
  void time() throws SQLException {
    assertThat(described("SELECT DATE '2024-01-01' a, TIME '10:00' b, TIMETZ '10:00:00+02' c,"
        + " TIMESTAMP '2024-01-01 10:00' d, TIMESTAMP_S '2024-01-01 10:00' e, TIMESTAMP_MS '2024-01-01 10:00' f,"
        + " TIMESTAMP_NS '2024-01-01 10:00' g, TIMESTAMPTZ '2024-01-01 10:00+00' h, INTERVAL 3 DAY i").values())
        .containsExactly("DATE | Date", "TIME | Time", "TIME WITH TIME ZONE | Time", "TIMESTAMP | Timestamp",
            "TIMESTAMP | Timestamp", "TIMESTAMP | Timestamp", "TIMESTAMP_NS | Timestamp",
            "TIMESTAMP WITH TIME ZONE | Timestamp", "INTERVAL | Interval");
  }

  @Test
  @DisplayName("text, bytes and the rest: strings, enums and JSON are Text, bytes Binary, a UUID a UUID, booleans"
      + " Boolean, VARIANT a Variant and GEOMETRY a Geometry (not the Struct and Binary they are stored as)")
  void rest() throws SQLException {
    assertThat(described("SELECT 'x' a, 'b'::ENUM('a','b') b, '{\"k\":1}'::JSON c, 'ab'::BLOB d, uuid() e, true f,"
        + " {'k': 1}::VARIANT g, 'POINT(1 2)'::GEOMETRY h").values()).containsExactly(
        "VARCHAR | Text", "VARCHAR | Text", "JSON | Text", "BLOB | Binary", "UUID | UUID", "BOOLEAN | Boolean",
        "VARIANT | Variant", "GEOMETRY('OGC:CRS84') | Geometry");
  }

  @Test
  @DisplayName("nested: lists and fixed arrays are Lists, structs Structs, maps Maps, whatever they hold (a list of"
      + " nothing but NULLs is DuckDB's \"NULL\"[], not the INTEGER[] a footer reader would guess)")
  void nested() throws SQLException {
    assertThat(described("SELECT [1, 2] a, [1, 2]::INTEGER[2] b, {'x': 1, 'y': 'z'} c, MAP {'k': 1} d,"
        + " [{'p': [1.5::DOUBLE]}] e, {'inner': {'deep': [true]}} f, [[NULL]] g").values()).containsExactly(
        "INTEGER[] | List", "INTEGER[] | List", "STRUCT(x INTEGER, y VARCHAR) | Struct", "MAP(VARCHAR, INTEGER) | Map",
        "STRUCT(p DOUBLE[])[] | List", "STRUCT(\"inner\" STRUCT(deep BOOLEAN[])) | Struct", "\"NULL\"[][] | List");
  }

  @Test
  @DisplayName("bytes that are not a footer fail to decode")
  void garbage() {
    assertThatThrownBy(() -> ParquetFooter.rowCount(new byte[] {1, 2, 3, 4, 5})).isInstanceOf(Exception.class);
  }
}
