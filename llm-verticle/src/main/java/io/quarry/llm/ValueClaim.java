package io.quarry.llm;

/** What a number or date of an answer says a value of the results is: a cell's value is that, or it is not. */
interface ValueClaim {

  boolean matches(Object cell);
}
