package io.quarry.worker;

import java.util.Locale;

/**
 * How long a copy its origin confirmed current may be used without asking again: {@code worker.freshForMs}, unless the
 * origin says otherwise in {@code Cache-Control} — its own words win. {@code no-cache} and {@code no-store}: ask at every
 * use; {@code s-maxage} or {@code max-age}: that many seconds (0 with {@code must-revalidate}: every use); {@code immutable}:
 * never again (a URL pinned to a commit or a version).
 */
final class Freshness {

  static final long FOREVER = Long.MAX_VALUE;

  private Freshness() {
  }

  static long windowMs(String cacheControl, long defaultMs) {
    if (cacheControl == null || cacheControl.isBlank()) {
      return defaultMs;
    }
    long maxAge = -1;
    long sharedMaxAge = -1;
    boolean immutable = false;
    for (String part : cacheControl.toLowerCase(Locale.ROOT).split(",")) {
      String directive = part.strip();
      if (directive.equals("no-cache") || directive.startsWith("no-cache=") || directive.equals("no-store")) {
        return 0;
      }
      if (directive.equals("immutable")) {
        immutable = true;
      } else if (directive.startsWith("max-age=")) {
        maxAge = seconds(directive.substring("max-age=".length()));
      } else if (directive.startsWith("s-maxage=")) {
        sharedMaxAge = seconds(directive.substring("s-maxage=".length()));
      }
    }
    if (immutable) {
      return FOREVER;
    }
    // Quarry's cache serves many users, as a shared cache does: s-maxage is meant for it.
    long seconds = sharedMaxAge >= 0 ? sharedMaxAge : maxAge;
    return seconds >= 0 ? Math.multiplyExact(Math.min(seconds, Long.MAX_VALUE / 1_000 - 1), 1_000L) : defaultMs;
  }

  /** A delta in seconds; one too large to hold is as good as forever, anything else unreadable as none. */
  private static long seconds(String value) {
    String digits = value.strip().replace("\"", "");
    try {
      return Math.max(0, Long.parseLong(digits));
    } catch (NumberFormatException e) {
      return digits.matches("\\d+") ? Long.MAX_VALUE : 0;
    }
  }
}
