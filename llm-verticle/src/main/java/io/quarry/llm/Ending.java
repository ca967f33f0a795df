package io.quarry.llm;

import java.util.Map;

/**
 * How one model response ended, read from Gemini's finish reason and prompt feedback, with what the user is
 * told when it ended short. Gemini 2.5 sometimes answers with nothing at all (mostly right after a tool
 * round) or with a function call it could not form; both are asked again once before the turn fails.
 *
 * @param notice for {@link Kind#DECLINED} and {@link Kind#CUT_OFF}, the sentence shown under the answer; for
 *     {@link Kind#EMPTY} and {@link Kind#MALFORMED}, the error once asking again did not help
 */
record Ending(Kind kind, String notice) {

  enum Kind { ANSWERED, CALLED_TOOLS, EMPTY, MALFORMED, DECLINED, CUT_OFF }

  static final String EMPTY_ANSWER = "Gemini returned an empty answer; try asking again or rephrasing";
  static final String MALFORMED_CALL = "Gemini could not form a valid tool call; try asking again or rephrasing";
  static final String CUT_OFF_NOTICE = "The answer was cut off at the model's output limit.";

  /** Gemini's reasons for declining, in words; a reason not listed is given as Gemini names it. */
  private static final Map<String, String> DECLINED_BECAUSE = Map.of(
      "SAFETY", "for safety reasons",
      "RECITATION", "because the answer would have recited copyrighted or published material",
      "PROHIBITED_CONTENT", "because the request touches content Google prohibits",
      "BLOCKLIST", "because the answer contained terms on Google's blocklist",
      "SPII", "because the answer would have revealed sensitive personal information",
      "IMAGE_SAFETY", "for safety reasons",
      "LANGUAGE", "because the question is in a language it does not support",
      "OTHER", "for a reason it did not give");

  static Ending of(ModelResponse response) {
    String finish = response.finishReason() == null ? "" : response.finishReason();
    if (response.blockReason() != null) {
      return new Ending(Kind.DECLINED, "Gemini declined to read this question " + because(response.blockReason()) + ".");
    }
    if (DECLINED_BECAUSE.containsKey(finish) && !"OTHER".equals(finish)) {
      return new Ending(Kind.DECLINED, "Gemini declined to answer " + because(finish) + ".");
    }
    if (finish.equals("MALFORMED_FUNCTION_CALL") || finish.equals("UNEXPECTED_TOOL_CALL")) {
      return new Ending(Kind.MALFORMED, MALFORMED_CALL);
    }
    if (!response.calls().isEmpty()) {
      return new Ending(Kind.CALLED_TOOLS, null);
    }
    if (finish.equals("MAX_TOKENS")) {
      return new Ending(Kind.CUT_OFF, CUT_OFF_NOTICE);
    }
    return response.visibleText() ? new Ending(Kind.ANSWERED, null) : new Ending(Kind.EMPTY, EMPTY_ANSWER);
  }

  private static String because(String reason) {
    return DECLINED_BECAUSE.getOrDefault(reason, "(" + reason + ")");
  }
}
