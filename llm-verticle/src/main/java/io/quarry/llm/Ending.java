package io.quarry.llm;

/**
 * How one model response ended, with what the user is told when it ended short. A model sometimes answers with
 * nothing at all (Gemini 2.5 mostly right after a tool round) or with a tool call it could not form; both are asked
 * again once before the turn fails.
 *
 * @param notice for {@link Kind#DECLINED} and {@link Kind#CUT_OFF}, the sentence shown under the answer; for
 *     {@link Kind#EMPTY} and {@link Kind#MALFORMED}, the error once asking again did not help
 */
record Ending(Kind kind, String notice) {

  enum Kind { ANSWERED, CALLED_TOOLS, EMPTY, MALFORMED, DECLINED, CUT_OFF }

  static final String CUT_OFF_NOTICE = "The answer was cut off at the model's output limit.";

  /** {@code speaker}: who answered, as {@link Model#speaker()} names it. */
  static Ending of(ModelResponse response, String speaker) {
    if (response.declinedNotice() != null) {
      return new Ending(Kind.DECLINED, response.declinedNotice());
    }
    if (response.isMalformed()) {
      return new Ending(Kind.MALFORMED, malformedCall(speaker));
    }
    if (!response.calls().isEmpty()) {
      return new Ending(Kind.CALLED_TOOLS, null);
    }
    if (response.isCutOff()) {
      return new Ending(Kind.CUT_OFF, CUT_OFF_NOTICE);
    }
    return response.visibleText() ? new Ending(Kind.ANSWERED, null) : new Ending(Kind.EMPTY, emptyAnswer(speaker));
  }

  static String emptyAnswer(String speaker) {
    return speaker + " returned an empty answer; try asking again or rephrasing";
  }

  static String malformedCall(String speaker) {
    return speaker + " could not form a valid tool call; try asking again or rephrasing";
  }
}
