package io.quarry.app;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Corpus files written here: what the other engines' test files lack (shredded VARIANT and GEOMETRY columns, every
 * codec DuckDB writes, tiny row groups, a list of NULLs), and broken files (a corrupt footer, a truncated file, a
 * footer length past the file).
 */
final class CorpusExtras {

  private static final String MIXED = "SELECT i, 'name ' || i AS name, (i * 1.5)::DECIMAL(12,3) AS amount,"
      + " DATE '2020-01-01' + (i % 1000)::INTEGER AS day, [i, NULL, i + 1] AS list, {'k': i, 's': 'v' || i} AS rec,"
      + " MAP {'a': i} AS m, CASE WHEN i % 7 = 0 THEN NULL ELSE i % 3 = 0 END AS flag FROM range(3000) t(i)";

  private CorpusExtras() {
  }

  static List<Path> write(Path dir) throws IOException {
    Files.createDirectories(dir);
    List<Path> written = new ArrayList<>();
    written.add(BareDuckDb.write(dir.resolve("variant-shredded.parquet"), "SELECT i, CASE WHEN i % 3 = 0 THEN"
        + " {'a': i, 'b': 'x' || i}::VARIANT WHEN i % 3 = 1 THEN [i, i + 1]::VARIANT ELSE (i * 1.5)::VARIANT END AS v,"
        + " {'fixed': i}::VARIANT AS w FROM range(2000) t(i)"));
    written.add(BareDuckDb.write(dir.resolve("geometry.parquet"), "SELECT i, ('POINT(' || i || ' ' || (i * 2) || ')')"
        + "::GEOMETRY AS g FROM range(500) t(i)"));
    written.add(BareDuckDb.write(dir.resolve("nulls-list.parquet"), "SELECT i, [NULL, NULL] AS nothing FROM range(50)"
        + " t(i)"));
    for (String codec : List.of("uncompressed", "snappy", "gzip", "zstd", "lz4", "brotli")) {
      Path file = dir.resolve("codec-" + codec + ".parquet");
      written.add(BareDuckDb.write(file, MIXED, ", COMPRESSION '" + codec + "', ROW_GROUP_SIZE 500"));
    }
    byte[] good = Files.readAllBytes(written.get(written.size() - 1));
    written.add(broken(dir, "corrupt-footer.parquet", corruptFooter(good)));
    written.add(broken(dir, "truncated.parquet", Arrays.copyOf(good, good.length / 2)));
    byte[] tooLong = good.clone();
    tooLong[good.length - 5] = 0x7f;
    written.add(broken(dir, "footer-length-past-the-file.parquet", tooLong));
    return written;
  }

  private static Path broken(Path dir, String name, byte[] bytes) throws IOException {
    return Files.write(dir.resolve(name), bytes);
  }

  /** The footer's length and magic number kept, its Thrift metadata overwritten. */
  private static byte[] corruptFooter(byte[] file) {
    byte[] broken = file.clone();
    int length = java.nio.ByteBuffer.wrap(file, file.length - 8, 4).order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt();
    Arrays.fill(broken, file.length - 8 - length + 4, file.length - 8, (byte) 0xFF);
    return broken;
  }
}
