package io.quarry.llm;

import io.quarry.bus.ChatMessage;
import io.quarry.bus.Dataset;
import io.vertx.core.json.JsonArray;
import java.util.List;

/**
 * What each of the turn's requests sends the model: the system prompt, built fresh from the conversation's datasets;
 * the history, pruned to its window (shorter once the model found the context too large); the turn's own rounds;
 * whether tools are allowed.
 */
final class TurnPrompt {

  /**
   * After the cut-off answer, which the history ends with as the model's own turn. Neither Gemini nor Chat Completions
   * promises to go on from an assistant turn left last (a prefill), so the model is asked in words.
   */
  static final String CONTINUE_INSTRUCTION = "Your previous answer was cut off at the output limit. Continue it"
      + " exactly where it stopped, even mid-word or mid-sentence: do not repeat anything already written, do not"
      + " start over, and do not comment on the continuation.";

  private final LlmSettings settings;
  /** A continuation: the model is told to go on, and calls no tool (it was writing text when it was cut off). */
  private final boolean continuing;
  private List<ChatMessage> history = List.of();
  private boolean shortened;

  TurnPrompt(LlmSettings settings, boolean continuing) {
    this.settings = settings;
    this.continuing = continuing;
  }

  /** The conversation up to the question, read once when the turn starts. */
  void history(List<ChatMessage> messages) {
    history = messages;
  }

  /** The question the turn answers (the last user message), or "" when there is none. */
  String question() {
    for (int i = history.size() - 1; i >= 0; i--) {
      if (ChatMessage.USER.equals(history.get(i).role())) {
        return history.get(i).content() == null ? "" : history.get(i).content();
      }
    }
    return "";
  }

  /** Drops more of the history from the next request on; false when that was done already (it is done once). */
  boolean shorten() {
    if (shortened) {
      return false;
    }
    shortened = true;
    return true;
  }

  ModelRequest request(List<Dataset> datasets, AnswerStream stream, boolean toolsOff) {
    List<ContextWindow.Entry> window = ContextWindow.build(history, settings.maxMessages(),
        settings.contextBudgetTokens(), shortened ? settings.contextRetryDrop() : 0);
    JsonArray contents = ContextWindow.contents(window);
    if (continuing) {
      contents.add(ContextWindow.text("user", CONTINUE_INSTRUCTION));
    }
    stream.appendTo(contents);
    return new ModelRequest(SystemPrompt.build(datasets), contents, toolsOff || continuing);
  }
}
