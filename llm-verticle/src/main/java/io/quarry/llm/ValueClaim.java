package io.quarry.llm;

import java.util.function.Predicate;

/** What a number or date of an answer says a value of the results is: a cell's value is that, or it is not. */
interface ValueClaim {

  boolean matches(ReadCell cell);

  default boolean matches(Object value) {
    return matches(ReadCell.of(value));
  }

  /**
   * The test of every cell of the results against this claim, made once: an answer's numbers are each held against
   * every cell, tens of thousands of them, so what can be worked out once is.
   */
  default Predicate<ReadCell> probe() {
    return this::matches;
  }
}
