package io.quarry.llm;

import java.math.BigDecimal;

/**
 * A value of the results read once, as the claims compare it: its number (and that number as a double, to rule most
 * claims out cheaply), and its date's fields; each null when it is none.
 */
record ReadCell(BigDecimal number, double approx, int[] date) {

  static ReadCell of(Object value) {
    BigDecimal number = NumberCheck.number(value);
    return new ReadCell(number, number == null ? Double.NaN : number.doubleValue(),
        number == null ? DateClaim.fields(value) : null);
  }
}
