package io.quarry.llm;

import com.google.genai.types.Candidate;
import com.google.genai.types.Content;
import com.google.genai.types.FunctionCall;
import com.google.genai.types.GenerateContentResponse;
import com.google.genai.types.GenerateContentResponseUsageMetadata;
import com.google.genai.types.Part;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * One streamed model response, kept exactly as received (thought signatures included) so that it can go
 * back to Gemini in the history; its visible text is handed on chunk by chunk.
 */
final class ModelResponse {

  private final JsonArray parts = new JsonArray();
  private final List<FunctionCall> calls = new ArrayList<>();
  private final Consumer<String> onText;
  private GenerateContentResponseUsageMetadata usage;
  private String finishReason;
  private String blockReason;
  private boolean visibleText;

  ModelResponse(Consumer<String> onText) {
    this.onText = onText;
  }

  void add(GenerateContentResponse chunk) {
    chunk.usageMetadata().ifPresent(u -> usage = u);
    chunk.promptFeedback().flatMap(feedback -> feedback.blockReason()).ifPresent(reason -> blockReason = reason.toString());
    List<Candidate> candidates = chunk.candidates().orElse(List.of());
    if (candidates.isEmpty()) {
      return;
    }
    candidates.get(0).finishReason().ifPresent(reason -> finishReason = reason.toString());
    List<Part> received = candidates.get(0).content().flatMap(Content::parts).orElse(List.of());
    for (Part part : received) {
      parts.add(new JsonObject(part.toJson()));
      if (part.functionCall().isPresent()) {
        calls.add(part.functionCall().get());
      } else if (part.text().isPresent() && !part.thought().orElse(false) && !part.text().get().isEmpty()) {
        visibleText = true;
        onText.accept(part.text().get());
      }
    }
  }

  List<FunctionCall> calls() {
    return calls;
  }

  /** The last finish reason Gemini gave, e.g. {@code STOP} or {@code MAX_TOKENS}; null when it gave none. */
  String finishReason() {
    return finishReason;
  }

  /** Why Gemini refused the prompt itself ({@code promptFeedback.blockReason}); null when it did not. */
  String blockReason() {
    return blockReason;
  }

  /** Whether the user saw any of it: text that is not a thought. */
  boolean visibleText() {
    return visibleText;
  }

  JsonObject content() {
    return new JsonObject().put("role", "model").put("parts", parts.copy());
  }

  long inputTokens() {
    return usage == null ? 0 : usage.promptTokenCount().orElse(0);
  }

  long thinkingTokens() {
    return usage == null ? 0 : usage.thoughtsTokenCount().orElse(0);
  }

  /** Output includes thinking: Gemini bills thoughts as output. */
  long outputTokens() {
    return usage == null ? 0 : usage.candidatesTokenCount().orElse(0) + usage.thoughtsTokenCount().orElse(0);
  }
}
