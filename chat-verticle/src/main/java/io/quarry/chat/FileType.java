package io.quarry.chat;

import java.util.Locale;

/**
 * The kinds of file the UI serves, by their names' endings: nothing else is read from the class path for a request, so
 * no folder (whose name has no such ending), class or configuration can be asked for by name. Text is worth gzipping;
 * the rest is served as it is.
 */
enum FileType {
  HTML(".html", "text/html;charset=UTF-8", true),
  SCRIPT(".js", "text/javascript; charset=utf-8", true),
  STYLE(".css", "text/css; charset=utf-8", true),
  SVG(".svg", "image/svg+xml", true),
  MARKDOWN(".md", "text/markdown; charset=utf-8", true),
  ICON(".ico", "image/x-icon", false),
  // The type IANA registered for Parquet in 2024.
  PARQUET(".parquet", "application/vnd.apache.parquet", false);

  private final String ending;
  private final String mediaType;
  private final boolean text;

  FileType(String ending, String mediaType, boolean text) {
    this.ending = ending;
    this.mediaType = mediaType;
    this.text = text;
  }

  /** The type of a file so named, or null for any other name. */
  static FileType of(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    for (FileType type : values()) {
      if (lower.endsWith(type.ending)) {
        return type;
      }
    }
    return null;
  }

  String mediaType() {
    return mediaType;
  }

  boolean text() {
    return text;
  }
}
