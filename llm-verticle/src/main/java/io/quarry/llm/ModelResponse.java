package io.quarry.llm;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * One streamed model response as the provider fed it: its visible text handed on chunk by chunk, the parts that go
 * back to the model in the history (Gemini's as received, thought signatures included), the tool calls, how it
 * ended and the tokens it used.
 */
final class ModelResponse {

  private final JsonArray parts = new JsonArray();
  private final List<ToolCall> calls = new ArrayList<>();
  private final Consumer<String> onText;
  private Runnable onFirst;
  private boolean begun;
  private long inputTokens;
  private long outputTokens;
  private long thinkingTokens;
  private boolean estimated;
  private String declined;
  private boolean cutOff;
  private boolean malformed;
  private boolean visibleText;

  ModelResponse(Consumer<String> onText) {
    this.onText = onText;
  }

  /** Runs when the first thing of the response arrives (the time to first token). */
  void onFirst(Runnable action) {
    onFirst = action;
  }

  /** Something of the response arrived. */
  void arrived() {
    if (!begun) {
      begun = true;
      if (onFirst != null) {
        onFirst.run();
      }
    }
  }

  /** Text the user sees, as it arrives. */
  void shown(String text) {
    if (!text.isEmpty()) {
      visibleText = true;
      onText.accept(text);
    }
  }

  /** A part of the history's model content, in Gemini's shape. */
  void keep(JsonObject part) {
    parts.add(part);
  }

  void called(ToolCall call) {
    calls.add(call);
  }

  /** Output includes thinking, as both providers bill it; {@code estimated} when the provider gave no figures. */
  void usage(long input, long output, long thinking, boolean estimated) {
    this.inputTokens = input;
    this.outputTokens = output;
    this.thinkingTokens = thinking;
    this.estimated = estimated;
  }

  /** The provider declined the question or the answer; {@code notice} says so in words. */
  void declined(String notice) {
    declined = notice;
  }

  /** It stopped at the model's output limit. */
  void cutOff() {
    cutOff = true;
  }

  /** It could not form a valid tool call. */
  void malformed() {
    malformed = true;
  }

  List<ToolCall> calls() {
    return calls;
  }

  String declinedNotice() {
    return declined;
  }

  boolean isCutOff() {
    return cutOff;
  }

  boolean isMalformed() {
    return malformed;
  }

  /** Whether the user saw any of it: text that is not a thought. */
  boolean visibleText() {
    return visibleText;
  }

  JsonObject content() {
    return new JsonObject().put("role", "model").put("parts", parts.copy());
  }

  long inputTokens() {
    return inputTokens;
  }

  long thinkingTokens() {
    return thinkingTokens;
  }

  long outputTokens() {
    return outputTokens;
  }

  boolean estimated() {
    return estimated;
  }
}
