package io.quarry.bus;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * UTC ISO-8601 timestamps with a fixed millisecond width, so that stored timestamps compare correctly
 * as text ({@link Instant#toString()} drops zero fractions and would not).
 */
public final class Timestamps {

  private static final DateTimeFormatter FORMAT =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  private Timestamps() {
  }

  public static String format(Instant instant) {
    return FORMAT.format(instant);
  }

  public static String now() {
    return format(Instant.now());
  }

  public static Instant parse(String text) {
    return Instant.parse(text);
  }
}
