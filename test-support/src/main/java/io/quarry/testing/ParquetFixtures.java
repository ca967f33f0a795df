package io.quarry.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/** Parquet files made by DuckDB in test setup, from a SELECT. */
public final class ParquetFixtures {

  private static Connection writer;

  private ParquetFixtures() {
  }

  /** Writes the rows of {@code select} as Parquet to {@code file} and returns its bytes. */
  public static byte[] write(Path file, String select) {
    create(file, select);
    try {
      return Files.readAllBytes(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Writes the rows of {@code select} as Parquet to {@code file}, however large. */
  public static void create(Path file, String select) {
    create(file, select, 122_880);
  }

  /** Writes the rows of {@code select} as Parquet to {@code file}, in row groups of {@code rowGroupRows} rows. */
  public static void create(Path file, String select, int rowGroupRows) {
    create(file, select, ", ROW_GROUP_SIZE " + rowGroupRows);
  }

  /** Writes the rows of {@code select} as Parquet to {@code file}; {@code options}: more of COPY's, each after a comma. */
  public static synchronized void create(Path file, String select, String options) {
    try (Statement s = writer().createStatement()) {
      s.execute("COPY (" + select + ") TO '" + file.toString().replace("'", "''") + "' (FORMAT parquet" + options + ")");
    } catch (SQLException e) {
      throw new IllegalStateException("Could not write fixture " + file + ": " + e.getMessage(), e);
    }
  }

  /**
   * The one database that writes every fixture of this JVM: opening one costs DuckDB some 35 ms of CPU, nine times the
   * COPY of a small fixture (4 ms), and the app's tests write people.parquet for most of their tests.
   */
  private static Connection writer() throws SQLException {
    if (writer == null) {
      writer = DriverManager.getConnection("jdbc:duckdb:");
    }
    return writer;
  }

  /** A Parquet file's footer with its 4-byte length and closing magic number, as the file's last 8 bytes say. */
  public static long footerLength(byte[] file) {
    return Integer.toUnsignedLong(java.nio.ByteBuffer.wrap(file, file.length - 8, 4)
        .order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt()) + 8;
  }

  /** A small table of people: id, name, age, score (decimal), joined (date), active (boolean). */
  public static byte[] people(Path dir) {
    return write(dir.resolve("people.parquet"), "SELECT i AS id, 'person ' || i AS name, 20 + i % 50 AS age,"
        + " (i * 1.25)::DECIMAL(10,2) AS score, DATE '2024-01-01' + i::INTEGER AS joined, i % 2 = 0 AS active"
        + " FROM range(1, 101) t(i)");
  }
}
