package io.quarry.llm;

import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A date or time of an answer (2000-01-01, 2000-01-01T10:00, "Jan 1, 2000", "1 January 2000", "January 2000",
 * 01/02/2000 either way round) as the fields it states; a DATE or TIMESTAMP cell (ISO text, as results carry them)
 * matches when it has every field the answer states. A time stated on a DATE cell matches only at midnight.
 */
record DateClaim(List<Reading> readings) implements ValueClaim {

  /** One way to read the date: a null field is one the answer did not state. */
  record Reading(Integer year, Integer month, Integer day, Integer hour, Integer minute, Integer second) {

    boolean matches(int[] cell) {
      return is(year, cell[0]) && is(month, cell[1]) && is(day, cell[2]) && is(hour, cell[3]) && is(minute, cell[4])
          && is(second, cell[5]);
    }

    private static boolean is(Integer stated, int value) {
      return stated == null || stated == value;
    }
  }

  private static final Pattern CELL = Pattern.compile(
      "(\\d{4})-(\\d{2})-(\\d{2})(?:[T ](\\d{2}):(\\d{2})(?::(\\d{2}))?)?(?:\\.\\d+)?(?:Z|[+-]\\d{2}(?::?\\d{2})?)?");
  private static final List<String> MONTHS = List.of("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep",
      "oct", "nov", "dec");

  /** The date a scan of {@link NumberMentions} read, or null when it read none. */
  static DateClaim of(Matcher m) {
    if (m.group("iso") != null) {
      return new DateClaim(List.of(new Reading(integer(m.group("isoY")), integer(m.group("isoM")),
          integer(m.group("isoD")), integer(m.group("isoH")), integer(m.group("isoMin")), integer(m.group("isoS")))));
    }
    if (m.group("mdy") != null) {
      return day(m.group("mdyY"), month(m.group("mdyM")), integer(m.group("mdyD")));
    }
    if (m.group("dmy") != null) {
      return day(m.group("dmyY"), month(m.group("dmyM")), integer(m.group("dmyD")));
    }
    if (m.group("my") != null) {
      return day(m.group("myY"), month(m.group("myM")), null);
    }
    if (m.group("slash") != null) {
      Integer a = integer(m.group("slA"));
      Integer b = integer(m.group("slB"));
      Integer y = integer(m.group("slY"));
      return new DateClaim(List.of(new Reading(y, a, b, null, null, null), new Reading(y, b, a, null, null, null)));
    }
    return null;
  }

  private static DateClaim day(String year, int month, Integer day) {
    return new DateClaim(List.of(new Reading(integer(year), month, day, null, null, null)));
  }

  private static int month(String name) {
    return MONTHS.indexOf(name.substring(0, 3).toLowerCase(Locale.ROOT)) + 1;
  }

  private static Integer integer(String digits) {
    return digits == null ? null : Integer.valueOf(digits);
  }

  @Override
  public boolean matches(ReadCell cell) {
    int[] date = cell.date();
    return date != null && readings.stream().anyMatch(r -> r.matches(date));
  }

  /** A DATE or TIMESTAMP cell's year, month, day, hour, minute and second (0 when it has no time); else null. */
  static int[] fields(Object cell) {
    if (!(cell instanceof String s) || s.length() < 10 || s.length() > 40) {
      return null;
    }
    Matcher m = CELL.matcher(s);
    if (!m.matches()) {
      return null;
    }
    int[] fields = new int[6];
    for (int i = 0; i < 6; i++) {
      fields[i] = m.group(i + 1) == null ? 0 : Integer.parseInt(m.group(i + 1));
    }
    return fields;
  }
}
