package io.quarry.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.zip.GZIPOutputStream;

/**
 * CSV, TSV and JSON files as people have them, written here by hand rather than by DuckDB: quoted fields holding the
 * delimiter and quotes, empty fields, dates, decimals, a header. The same 120 people in each, so a test can compare
 * one format's answer with another's.
 */
public final class TextFixtures {

  public static final int ROWS = 120;
  private static final List<String> CITIES = List.of("Lyon", "São Paulo", "New York, NY", "Köln");

  private TextFixtures() {
  }

  /** A comma-separated file with a header row. */
  public static byte[] csv() {
    return delimited(',');
  }

  /** The same rows separated by tabs. */
  public static byte[] tsv() {
    return delimited('\t');
  }

  private static byte[] delimited(char delimiter) {
    StringBuilder text = new StringBuilder(String.join(String.valueOf(delimiter), "id", "name", "city", "joined",
        "score")).append('\n');
    for (int i = 1; i <= ROWS; i++) {
      String name = i % 7 == 0 ? "\"O'Brien, \"\"Pat\"\" " + i + "\"" : "Person " + i;
      String city = CITIES.get(i % CITIES.size());
      city = city.indexOf(delimiter) >= 0 ? "\"" + city + "\"" : city;
      String score = i % 11 == 0 ? "" : String.format("%d.%02d", i * 3, i % 100);
      text.append(String.join(String.valueOf(delimiter), String.valueOf(i), name, city, joined(i), score))
          .append('\n');
    }
    return text.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** One JSON object per line (NDJSON). */
  public static byte[] ndjson() {
    StringBuilder text = new StringBuilder();
    for (int i = 1; i <= ROWS; i++) {
      text.append(object(i)).append('\n');
    }
    return text.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** A JSON array of the same objects. */
  public static byte[] jsonArray() {
    StringBuilder text = new StringBuilder("[\n");
    for (int i = 1; i <= ROWS; i++) {
      text.append("  ").append(object(i)).append(i < ROWS ? ",\n" : "\n");
    }
    return text.append("]\n").toString().getBytes(StandardCharsets.UTF_8);
  }

  private static String object(int i) {
    String score = i % 11 == 0 ? "null" : String.format("%d.%02d", i * 3, i % 100);
    return "{\"id\": " + i + ", \"name\": \"Person " + i + "\", \"city\": \"" + CITIES.get(i % CITIES.size())
        + "\", \"joined\": \"" + joined(i) + "\", \"score\": " + score + ", \"tags\": [\"t" + (i % 3) + "\"]}";
  }

  private static String joined(int i) {
    return String.format("2024-%02d-%02d", 1 + i % 12, 1 + i % 28);
  }

  /**
   * {@code rows} good rows of two columns, then one with a third field: past DuckDB's sniffing sample, so the reader
   * meets it while reading, on line {@code rows + 2} (the header is line 1).
   */
  public static byte[] malformedCsv(int rows) {
    StringBuilder text = new StringBuilder("id,label\n");
    for (int i = 1; i <= rows; i++) {
      text.append(i).append(",row ").append(i).append('\n');
    }
    return text.append(rows + 1).append(",bad,extra\n").toString().getBytes(StandardCharsets.UTF_8);
  }

  public static byte[] gzip(byte[] plain) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream zip = new GZIPOutputStream(out)) {
      zip.write(plain);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  /** {@code plain} compressed with Zstandard (by DuckDB's writer: the JDK has none), through {@code dir}. */
  public static byte[] zstd(byte[] plain, Path dir) {
    try {
      Path source = Files.createTempFile(dir, "plain", ".bin");
      Files.write(source, plain);
      Path target = dir.resolve(source.getFileName() + ".zst");
      try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
        // The whole text as one value, written without quotes or header, its last newline the writer's own: the same
        // bytes, compressed.
        s.execute("COPY (SELECT rtrim(content, chr(10)) FROM read_text('" + source.toString().replace("'", "''") + "')) TO '"
            + target.toString().replace("'", "''") + "' (FORMAT CSV, HEADER false, QUOTE '', ESCAPE '',"
            + " DELIMITER '\u0001', COMPRESSION zstd)");
      }
      return Files.readAllBytes(target);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (SQLException e) {
      throw new IllegalStateException("Could not compress with zstd: " + e.getMessage(), e);
    }
  }
}
