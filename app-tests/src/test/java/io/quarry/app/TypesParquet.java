package io.quarry.app;

import io.quarry.testing.ParquetFixtures;
import java.nio.file.Path;

/**
 * types.parquet: two rows of the types a table and the schema modal must read right — a 10,000-character text, a
 * decimal, a double, timestamps of different precision, a time of day, a map, bytes and a UUID.
 */
final class TypesParquet {

  /** 10,000 characters. */
  static final String LONG_TEXT = "word ".repeat(2000);
  static final String SELECT = "SELECT * FROM (VALUES"
      + " (1, 'short note', 146284726.86::DECIMAL(12,2), 0.5::DOUBLE, TIMESTAMP '2024-01-01 00:00:00',"
      + " TIME '10:00:00', MAP {'k': 1}, 'ab'::BLOB, '6f1c3c0a-5d2e-4a5f-9c55-2d3b1f6a7e10'::UUID),"
      + " (2, '" + LONG_TEXT + "', 1234.5::DECIMAL(12,2), 1234567.25::DOUBLE, TIMESTAMP '2024-01-01 01:00:00.001001',"
      + " TIME '10:00:00.5', MAP {'k': 2}, 'cd'::BLOB, '0e6f3d1b-7a2c-4b8e-8f3a-1c2d3e4f5a6b'::UUID)"
      + ") t(id, note, amount, ratio, ts, clock, tags, bytes, uid)";

  private TypesParquet() {
  }

  static byte[] write(Path dir) {
    return ParquetFixtures.write(dir.resolve("types.parquet"), SELECT);
  }
}
