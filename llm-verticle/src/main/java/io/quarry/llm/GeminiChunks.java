package io.quarry.llm;

import com.google.genai.types.Candidate;
import com.google.genai.types.Content;
import com.google.genai.types.GenerateContentResponse;
import com.google.genai.types.Part;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Gemini's chunks into a {@link ModelResponse}: every part kept exactly as received (thought signatures included) so
 * that it goes back to Gemini in the history; its finish reasons and prompt feedback in the user's words.
 */
final class GeminiChunks {

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

  private static final Pattern REASON_NAME = Pattern.compile("[A-Z][A-Z_]{0,63}");

  private final ModelResponse into;

  GeminiChunks(ModelResponse into) {
    this.into = into;
  }

  void add(GenerateContentResponse chunk) {
    into.arrived();
    chunk.usageMetadata().ifPresent(u -> into.usage(u.promptTokenCount().orElse(0),
        u.candidatesTokenCount().orElse(0) + u.thoughtsTokenCount().orElse(0), u.thoughtsTokenCount().orElse(0), false));
    chunk.promptFeedback().flatMap(feedback -> feedback.blockReason()).ifPresent(reason ->
        into.declined("Gemini declined to read this question " + because(reason.toString()) + "."));
    List<Candidate> candidates = chunk.candidates().orElse(List.of());
    if (candidates.isEmpty()) {
      return;
    }
    candidates.get(0).finishReason().ifPresent(reason -> finished(reason.toString()));
    for (Part part : candidates.get(0).content().flatMap(Content::parts).orElse(List.of())) {
      into.keep(new JsonObject(part.toJson()));
      if (part.functionCall().isPresent()) {
        var call = part.functionCall().get();
        into.called(new ToolCall(call.id().orElse(null), call.name().orElse(""),
            new JsonObject(call.args().orElse(Map.of()))));
      } else if (part.text().isPresent() && !part.thought().orElse(false)) {
        into.shown(part.text().get());
      }
    }
  }

  private void finished(String reason) {
    if (DECLINED_BECAUSE.containsKey(reason) && !"OTHER".equals(reason)) {
      into.declined("Gemini declined to answer " + because(reason) + ".");
    } else if (reason.equals("MALFORMED_FUNCTION_CALL") || reason.equals("UNEXPECTED_TOOL_CALL")) {
      into.malformed();
    } else if (reason.equals("MAX_TOKENS")) {
      into.cutOff();
    }
  }

  /** A reason not listed is shown only as the name of a reason: nothing else Gemini sends reaches the notice. */
  private static String because(String reason) {
    return DECLINED_BECAUSE.getOrDefault(reason, REASON_NAME.matcher(reason).matches() ? "(" + reason + ")"
        : DECLINED_BECAUSE.get("OTHER"));
  }
}
