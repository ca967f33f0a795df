package io.quarry.worker;

import io.quarry.bus.DataFormat;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The DuckDB reader of a downloaded text file, with its sniffing left on (delimiter, quotes, header, types, dates) and
 * its compression named from its first bytes: DuckDB guesses compression from a file's extension, and a copy has none.
 */
final class TextReaders {

  private TextReaders() {
  }

  /** {@code read_csv(…)} or {@code read_json(…)} over {@code file}, as a table expression. */
  static String reader(Path file, DataFormat format) throws IOException {
    String path = DuckInstances.literal(file.toString());
    String compression = "'" + compression(file) + "'";
    return switch (format) {
      case CSV -> "read_csv(" + path + ", compression = " + compression + ")";
      case JSON -> "read_json(" + path + ", compression = " + compression + ")";
      case PARQUET -> throw new IllegalArgumentException("A Parquet file is read where it lies");
    };
  }

  private static String compression(Path file) throws IOException {
    byte[] head;
    try (InputStream in = Files.newInputStream(file)) {
      head = in.readNBytes(4);
    }
    if (head.length >= 2 && (head[0] & 0xff) == 0x1f && (head[1] & 0xff) == 0x8b) {
      return "gzip";
    }
    boolean zstd = head.length == 4 && (head[0] & 0xff) == 0x28 && (head[1] & 0xff) == 0xb5
        && (head[2] & 0xff) == 0x2f && (head[3] & 0xff) == 0xfd;
    return zstd ? "zstd" : "none";
  }
}
