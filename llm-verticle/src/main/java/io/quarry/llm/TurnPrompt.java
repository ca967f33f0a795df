package io.quarry.llm;

import io.quarry.bus.ChatMessage;
import io.quarry.bus.Dataset;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * What each of the turn's requests sends Gemini: the system prompt, built fresh from the conversation's datasets; the
 * history, pruned to its window (shorter once Gemini found the context too large); the turn's own rounds; the tools.
 */
final class TurnPrompt {

  private final LlmSettings settings;
  private List<ChatMessage> history = List.of();
  private boolean shortened;

  TurnPrompt(LlmSettings settings) {
    this.settings = settings;
  }

  /** The conversation up to the question, read once when the turn starts. */
  void history(List<ChatMessage> messages) {
    history = messages;
  }

  /** Drops more of the history from the next request on; false when that was done already (it is done once). */
  boolean shorten() {
    if (shortened) {
      return false;
    }
    shortened = true;
    return true;
  }

  JsonObject body(List<Dataset> datasets, AnswerStream stream, boolean toolsOff) {
    List<ContextWindow.Entry> window = ContextWindow.build(history, settings.maxMessages(),
        settings.contextBudgetTokens(), shortened ? settings.contextRetryDrop() : 0);
    JsonArray contents = ContextWindow.contents(window);
    stream.appendTo(contents);
    return new JsonObject()
        .put("contents", contents)
        .put("systemInstruction", new JsonObject().put("parts", new JsonArray()
            .add(new JsonObject().put("text", SystemPrompt.build(datasets)))))
        .put("tools", Tools.JSON)
        .put("toolConfig", new JsonObject().put("functionCallingConfig",
            new JsonObject().put("mode", toolsOff ? "NONE" : "AUTO")));
  }
}
