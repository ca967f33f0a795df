package io.quarry.llm;

import io.quarry.bus.ChatEvents;
import io.quarry.bus.ChatMessage;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * The answer as far as it has streamed: its text, sent to the browsers token by token, and the rounds the turn adds
 * to the conversation, which go back to Gemini with every request: the model's contents exactly as received
 * (thoughts and their signatures included) and the tools' function responses.
 */
final class AnswerStream {

  private final Events events;
  private final String assistantId;
  private final StringBuilder text = new StringBuilder();
  private final List<JsonObject> rounds = new ArrayList<>();
  /** The rounds of the answer this one continues, already in the history its requests carry. */
  private final List<JsonObject> prior = new ArrayList<>();

  AnswerStream(Events events, String assistantId) {
    this.events = events;
    this.assistantId = assistantId;
  }

  /** Goes on from an answer cut off at the model's output limit: its text and rounds come first, unsent again. */
  AnswerStream(Events events, ChatMessage continued) {
    this(events, continued.id());
    text.append(continued.content());
    if (continued.toolRounds() != null) {
      continued.toolRounds().forEach(r -> prior.add((JsonObject) r));
    }
  }

  void token(String token) {
    text.append(token);
    events.emit(ChatEvents.chatToken(events.conversationId, assistantId, token));
  }

  void add(JsonObject round) {
    rounds.add(round);
  }

  /** Nothing written yet, neither text nor a round. */
  boolean isEmpty() {
    return text.length() == 0 && rounds.isEmpty();
  }

  String text() {
    return text.toString();
  }

  /** The turn's rounds after the history, for the next request. */
  void appendTo(JsonArray contents) {
    rounds.forEach(contents::add);
  }

  /**
   * The rounds stored with the message: one that is not complete ends with whole exchanges, so history stays valid. A
   * continuation's first model content joins the cut-off one it goes on from, so that the history shows one answer.
   */
  JsonArray saved(String status) {
    List<JsonObject> kept = new ArrayList<>(prior);
    for (JsonObject round : rounds) {
      JsonObject last = kept.isEmpty() ? null : kept.get(kept.size() - 1);
      if (last != null && "model".equals(last.getString("role")) && "model".equals(round.getString("role"))) {
        kept.set(kept.size() - 1, last.copy().put("parts", last.getJsonArray("parts", new JsonArray()).copy()
            .addAll(round.getJsonArray("parts", new JsonArray()))));
      } else {
        kept.add(round);
      }
    }
    while (!kept.isEmpty() && !ChatMessage.COMPLETE.equals(status)
        && "model".equals(kept.get(kept.size() - 1).getString("role"))) {
      kept.remove(kept.size() - 1);
    }
    return new JsonArray(kept);
  }
}
