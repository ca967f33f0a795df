package io.quarry.bus;

import java.util.Locale;

/** Sizes and durations as people read them in messages. */
public final class Sizes {

  private Sizes() {
  }

  public static String human(long bytes) {
    if (bytes >= 1L << 30) {
      return String.format(Locale.ROOT, "%.1f GB", bytes / (double) (1L << 30));
    }
    if (bytes >= 1L << 20) {
      return String.format(Locale.ROOT, "%.1f MB", bytes / (double) (1L << 20));
    }
    if (bytes >= 1L << 10) {
      return String.format(Locale.ROOT, "%.1f KB", bytes / (double) (1L << 10));
    }
    return bytes + " bytes";
  }

  public static String seconds(long millis) {
    return millis % 1000 == 0 ? millis / 1000 + " s" : String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
  }
}
