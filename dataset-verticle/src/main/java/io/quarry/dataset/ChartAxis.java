package io.quarry.dataset;

import java.util.Locale;

/**
 * One axis of a chart computed in SQL: a numeric or date column is continuous, and when it has more distinct values
 * than the chart has room for ({@code steps}, a SQL expression over the bounds) it is cut into that many equal steps
 * (each value becomes its step's start); any other column is a category, kept as it is.
 */
record ChartAxis(String column, String type, String steps) {

  /** What a bounds row names this axis's count of values, least and greatest ({@code _n}, {@code _lo}, {@code _hi}). */
  String bound(String what) {
    return ChartAxis.quote("__quarry_" + column + "_" + what);
  }

  boolean continuous() {
    return numeric(type) || date(type) || timestamp(type);
  }

  /** The bounds' select items: how many values, the least and the greatest. */
  String bounds() {
    String c = quote(column);
    return "count(DISTINCT " + c + ") AS " + bound("n") + ", min(" + c + ") AS " + bound("lo") + ", max(" + c
        + ") AS " + bound("hi");
  }

  /** The value drawn for a row: its own, or its step's start when the column has more values than steps. */
  String expression() {
    String c = quote(column);
    if (!continuous()) {
      return c;
    }
    String lo = bound("lo");
    String hi = bound("hi");
    String step;
    if (numeric(type)) {
      String width = "((" + hi + " - " + lo + ") / CAST(" + steps + " AS DOUBLE))";
      step = lo + " + least(floor((" + c + " - " + lo + ") / " + width + "), " + steps + " - 1) * " + width;
    } else if (date(type)) {
      step = "time_bucket(to_days(CAST((" + hi + " - " + lo + ") // " + steps + " + 1 AS INTEGER)), " + c + ", " + lo
          + ")";
    } else {
      step = "time_bucket(to_microseconds((epoch_us(" + hi + ") - epoch_us(" + lo + ")) // " + steps + " + 1), " + c
          + ", " + lo + ")";
    }
    return "CASE WHEN " + bound("n") + " <= " + steps + " THEN " + c + " ELSE " + step + " END";
  }

  static boolean numeric(String type) {
    String t = type.toUpperCase(Locale.ROOT);
    return t.matches("(U?(TINY|SMALL|BIG|HUGE)?INT(EGER)?|DOUBLE|FLOAT|REAL|DECIMAL.*|NUMERIC.*)");
  }

  static boolean date(String type) {
    return type.equalsIgnoreCase("DATE");
  }

  static boolean timestamp(String type) {
    return type.toUpperCase(Locale.ROOT).startsWith("TIMESTAMP");
  }

  static String quote(String name) {
    return "\"" + name.replace("\"", "\"\"") + "\"";
  }
}
