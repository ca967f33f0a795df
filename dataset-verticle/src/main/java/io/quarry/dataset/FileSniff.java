package io.quarry.dataset;

/**
 * What a file that is not Parquet looks like, from the first bytes the magic-number check read: a user who pasted
 * the address of a CSV file, a JSON API or a web page learns which, not only that it is "Not a valid parquet file".
 */
final class FileSniff {

  private FileSniff() {
  }

  /** ": this looks like …", or "" when the bytes say nothing recognisable. */
  static String looksLike(byte[] head) {
    String kind = kind(head);
    return kind == null ? "" : ": this looks like " + kind;
  }

  private static String kind(byte[] head) {
    if (head.length >= 2 && (head[0] & 0xff) == 0x1f && (head[1] & 0xff) == 0x8b) {
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
