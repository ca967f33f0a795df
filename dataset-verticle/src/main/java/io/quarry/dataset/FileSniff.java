package io.quarry.dataset;

import io.quarry.bus.DataFormat;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What a file is, from the first bytes the magic-number check read, with its name as a hint: Parquet, CSV or JSON
 * (plain or compressed), or something Quarry does not read — and then what it looks like, so that a user who pasted
 * the address of a web page or an archive learns which, not only that it is "Not a valid parquet file".
 */
final class FileSniff {

  private static final Pattern JSON_NAME = Pattern.compile(".*\\.(json|ndjson|jsonl)(\\.(gz|gzip|zst|zstd))?$",
      Pattern.CASE_INSENSITIVE);

  /** A URL named as Parquet is held to the seed's check: it is Parquet or "Not a valid parquet file". */
  private static final Pattern PARQUET_NAME = Pattern.compile(".*\\.(parquet|parq|pq)$", Pattern.CASE_INSENSITIVE);

  private FileSniff() {
  }

  /**
   * The format these first bytes begin, or empty for a file Quarry does not read. A compressed file's content cannot
   * be seen in its first bytes: its name says JSON ({@code .json.gz}, {@code .ndjson.zst}), else it is read as CSV. A
   * file named {@code .parquet} is Parquet or nothing, as the seed has it.
   */
  static Optional<DataFormat> format(byte[] head, String path) {
    if (head.length >= 4 && head[0] == 'P' && head[1] == 'A' && head[2] == 'R' && head[3] == '1') {
      return Optional.of(DataFormat.PARQUET);
    }
    if (PARQUET_NAME.matcher(path).matches()) {
      return Optional.empty();
    }
    if (gzip(head) || zstd(head)) {
      return Optional.of(JSON_NAME.matcher(path).matches() ? DataFormat.JSON : DataFormat.CSV);
    }
    String text = text(head);
    if (text == null || text.startsWith("<")) {
      return Optional.empty();
    }
    if (text.startsWith("{") || text.startsWith("[") || text.isEmpty() && JSON_NAME.matcher(path).matches()) {
      return Optional.of(DataFormat.JSON);
    }
    return text.isEmpty() && head.length == 0 ? Optional.empty() : Optional.of(DataFormat.CSV);
  }

  private static boolean gzip(byte[] head) {
    return head.length >= 2 && (head[0] & 0xff) == 0x1f && (head[1] & 0xff) == 0x8b;
  }

  private static boolean zstd(byte[] head) {
    return head.length >= 4 && (head[0] & 0xff) == 0x28 && (head[1] & 0xff) == 0xb5 && (head[2] & 0xff) == 0x2f
        && (head[3] & 0xff) == 0xfd;
  }

  /** ": this looks like …", or "" when the bytes say nothing recognisable. */
  static String looksLike(byte[] head) {
    String kind = kind(head);
    return kind == null ? "" : ": this looks like " + kind;
  }

  private static String kind(byte[] head) {
    if (gzip(head)) {
      return "a gzip archive";
    }
    if (head.length >= 2 && head[0] == 'P' && head[1] == 'K') {
      return "a ZIP archive";
    }
    String text = text(head);
    if (text == null || text.isEmpty()) {
      return null;
    }
    char first = text.charAt(0);
    if (first == '{' || first == '[') {
      return "JSON text";
    }
    if (first == '<') {
      return text.regionMatches(true, 0, "<?xm", 0, Math.min(4, text.length())) ? "XML text" : "an HTML page";
    }
    return "CSV text";
  }

  /** The bytes as text past a BOM and leading blanks, or null when they hold a control character (binary). */
  private static String text(byte[] head) {
    int from = head.length >= 3 && (head[0] & 0xff) == 0xef && (head[1] & 0xff) == 0xbb && (head[2] & 0xff) == 0xbf
        ? 3 : 0;
    StringBuilder text = new StringBuilder();
    for (int i = from; i < head.length; i++) {
      int b = head[i] & 0xff;
      if (b < 0x20 && b != '\t' && b != '\n' && b != '\r' || b == 0x7f) {
        return null;
      }
      text.append((char) b);
    }
    return text.toString().stripLeading();
  }
}
