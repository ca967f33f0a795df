package io.quarry.llm;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Locale;
import java.util.function.Predicate;
import java.util.regex.Matcher;

/**
 * A number of an answer: its value (signed when a sign is written), the decimals it shows, its scale (K, M, B;
 * thousand, million, billion), whether it is a percentage. A value matches when, written at the precision the answer
 * shows, it is that number: rounded either way at a half, divided by the scale, as a percentage of a ratio or of a
 * percentage value. An unsigned number matches a negative value's size ("a drop of 5%" of -0.05); a signed one only its
 * sign. An approximate number ("about 3,000", "~3k") shows no more precision than its last non-zero digit. A plain
 * four-digit number from 1900 to 2100 may be a year, and matches a DATE or TIMESTAMP cell of that year too.
 */
record NumberClaim(BigDecimal number, boolean signed, int decimals, BigDecimal scale, boolean percent, boolean plain)
    implements ValueClaim {

  static NumberClaim of(Matcher m) {
    String integer = m.group("int").replaceAll("[^0-9]", "");
    String frac = m.group("frac");
    BigDecimal number = new BigDecimal(integer + (frac == null ? "" : frac));
    String sign = m.group("sign") != null ? m.group("sign") : m.group("sign2");
    if (sign != null && !sign.equals("+")) {
      number = number.negate();
    }
    String unit = m.group("abbr") != null ? m.group("abbr") : m.group("word");
    boolean percent = m.group("pct") != null;
    boolean plain = frac == null && unit == null && !percent && sign == null && m.group("cur") == null
        && integer.equals(m.group("int"));
    NumberClaim claim = new NumberClaim(number, sign != null, frac == null ? 0 : frac.length() - 1, scale(unit), percent,
        plain);
    return m.group("approx") != null ? claim.approximate() : claim;
  }

  private static BigDecimal scale(String unit) {
    if (unit == null) {
      return BigDecimal.ONE;
    }
    return switch (unit.toLowerCase(Locale.ROOT)) {
      case "k", "thousand" -> BigDecimal.valueOf(1_000);
      case "m", "mn", "million" -> BigDecimal.valueOf(1_000_000);
      case "trillion" -> BigDecimal.valueOf(1_000_000_000_000L);
      default -> BigDecimal.valueOf(1_000_000_000);
    };
  }

  /** The same number said to be about right: its trailing zeros are not precision. */
  NumberClaim approximate() {
    if (decimals != 0 || number.signum() == 0) {
      return this;
    }
    int zeros = Math.max(0, -number.stripTrailingZeros().scale());
    return new NumberClaim(number, signed, -zeros, scale, percent, plain);
  }

  /** A year, as prose writes one: 1900 to 2100, no separators, decimals, sign, unit or currency. */
  boolean year() {
    return plain && number.compareTo(BigDecimal.valueOf(1900)) >= 0 && number.compareTo(BigDecimal.valueOf(2100)) <= 0;
  }

  @Override
  public boolean matches(ReadCell cell) {
    if (cell.number() == null) {
      int[] date = year() ? cell.date() : null;
      return date != null && date[0] == number.intValue();
    }
    return matches(cell.number());
  }

  /**
   * Rules a number out in double arithmetic first: a value further from the claim than one unit of the last digit it
   * shows (or its size, unsigned; or a hundredth of it, for a percentage) cannot round to it.
   */
  @Override
  public Predicate<ReadCell> probe() {
    double claimed = number.doubleValue();
    double scaleBy = scale.doubleValue();
    double unit = Math.pow(10, -decimals) * 1.001 + Math.abs(claimed) * 1e-9;
    return cell -> {
      if (cell.number() == null) {
        return matches(cell);
      }
      double v = cell.approx();
      boolean near = percent ? near(v, claimed, unit) || near(v * 100, claimed, unit) : near(v / scaleBy, claimed, unit);
      return near && matches(cell.number());
    };
  }

  private boolean near(double value, double claimed, double unit) {
    return Math.abs(value - claimed) <= unit || !signed && Math.abs(-value - claimed) <= unit;
  }

  boolean matches(BigDecimal value) {
    return matchesSigned(value) || !signed && value.signum() < 0 && matchesSigned(value.negate());
  }

  private boolean matchesSigned(BigDecimal value) {
    if (percent) {
      return shownAs(value) || shownAs(value.multiply(BigDecimal.valueOf(100)));
    }
    return shownAs(value.divide(scale, MathContext.DECIMAL64));
  }

  /** Rounded to the decimals shown (either way at a half: answers round both ways). */
  private boolean shownAs(BigDecimal value) {
    BigDecimal up = value.setScale(decimals, RoundingMode.HALF_UP);
    BigDecimal even = value.setScale(decimals, RoundingMode.HALF_EVEN);
    return up.compareTo(number) == 0 || even.compareTo(number) == 0;
  }
}
