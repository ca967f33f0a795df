package io.quarry.llm;

import io.quarry.bus.ChatMessage;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * The seed's context pruning: the newest {@code maxMessages} user and assistant messages, each assistant
 * message with its tool-call rounds riding free; then the oldest dropped until {@code total_chars / 4} is
 * within the token budget. Older messages stay in the database, out of the request.
 */
final class ContextWindow {

  /** One message as Gemini contents: a user turn, or an assistant's rounds and final answer. */
  record Entry(List<JsonObject> contents) {
    long chars() {
      return contents.stream().mapToLong(c -> c.encode().length()).sum();
    }
  }

  private ContextWindow() {
  }

  /**
   * @param dropOldest further messages to leave out, oldest first (the retry after a context-too-large error)
   */
  static List<Entry> build(List<ChatMessage> messages, int maxMessages, long budgetTokens, int dropOldest) {
    List<Entry> entries = new ArrayList<>();
    for (ChatMessage m : messages) {
      if (ChatMessage.USER.equals(m.role()) || ChatMessage.ASSISTANT.equals(m.role())) {
        entries.add(entry(m));
      }
    }
    int from = Math.max(0, entries.size() - maxMessages);
    List<Entry> kept = new ArrayList<>(entries.subList(from, entries.size()));
    kept.subList(0, Math.min(dropOldest, Math.max(0, kept.size() - 1))).clear();
    long chars = kept.stream().mapToLong(Entry::chars).sum();
    while (kept.size() > 1 && chars / 4 > budgetTokens) {
      chars -= kept.remove(0).chars();
    }
    return kept;
  }

  static JsonArray contents(List<Entry> entries) {
    JsonArray contents = new JsonArray();
    entries.forEach(e -> e.contents().forEach(contents::add));
    return contents;
  }

  private static Entry entry(ChatMessage m) {
    if (ChatMessage.USER.equals(m.role())) {
      return new Entry(List.of(text("user", m.content())));
    }
    List<JsonObject> contents = new ArrayList<>();
    m.toolRounds().forEach(c -> contents.add((JsonObject) c));
    if (contents.isEmpty() || !"model".equals(contents.get(contents.size() - 1).getString("role"))
        || hasFunctionCall(contents.get(contents.size() - 1))) {
      contents.add(text("model", m.content().isEmpty() ? "(no answer)" : m.content()));
    }
    return new Entry(contents);
  }

  static JsonObject text(String role, String text) {
    return new JsonObject().put("role", role).put("parts", new JsonArray().add(new JsonObject().put("text", text)));
  }

  private static boolean hasFunctionCall(JsonObject content) {
    return content.getJsonArray("parts", new JsonArray()).stream()
        .anyMatch(p -> ((JsonObject) p).containsKey("functionCall"));
  }
}
