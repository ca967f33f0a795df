package io.quarry.llm;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * The conversation, stored in Gemini's {@code contents} shape, as Chat Completions {@code messages}: the system
 * prompt first; a user content's text as a user message and its function responses as {@code role: tool} messages
 * paired with their calls by {@code tool_call_id}; a model content's visible text and its calls as one assistant
 * message with {@code tool_calls}; thoughts left out. Calls stored without an id (answered by Gemini) get one here,
 * and their responses, which follow them in the same order, the same.
 */
final class OpenAiMessages {

  private OpenAiMessages() {
  }

  static JsonArray of(String systemPrompt, JsonArray contents) {
    JsonArray messages = new JsonArray().add(new JsonObject().put("role", "system").put("content", systemPrompt));
    List<String> lastCallIds = new ArrayList<>();
    for (int i = 0; i < contents.size(); i++) {
      JsonObject content = contents.getJsonObject(i);
      JsonArray parts = content.getJsonArray("parts", new JsonArray());
      if ("model".equals(content.getString("role"))) {
        lastCallIds = assistant(messages, parts, i);
      } else {
        user(messages, parts, lastCallIds);
        lastCallIds = List.of();
      }
    }
    return messages;
  }

  /** Returns the ids of the calls it made, in order. */
  private static List<String> assistant(JsonArray messages, JsonArray parts, int index) {
    StringBuilder text = new StringBuilder();
    JsonArray calls = new JsonArray();
    List<String> ids = new ArrayList<>();
    for (Object p : parts) {
      JsonObject part = (JsonObject) p;
      if (part.getValue("functionCall") instanceof JsonObject call) {
        String id = call.getString("id", "call_" + index + "_" + ids.size());
        ids.add(id);
        calls.add(new JsonObject().put("id", id).put("type", "function").put("function", new JsonObject()
            .put("name", call.getString("name", "")).put("arguments", call.getJsonObject("args", new JsonObject())
                .encode())));
      } else if (part.getValue("text") instanceof String t && !part.getBoolean("thought", false)) {
        text.append(t);
      }
    }
    // With calls and no text, null: some servers refuse an empty string beside tool_calls.
    JsonObject message = new JsonObject().put("role", "assistant")
        .put("content", text.length() == 0 && !calls.isEmpty() ? null : text.toString());
    if (!calls.isEmpty()) {
      message.put("tool_calls", calls);
    }
    messages.add(message);
    return ids;
  }

  private static void user(JsonArray messages, JsonArray parts, List<String> callIds) {
    StringBuilder text = new StringBuilder();
    int responses = 0;
    for (Object p : parts) {
      JsonObject part = (JsonObject) p;
      if (part.getValue("functionResponse") instanceof JsonObject response) {
        String id = response.getString("id", responses < callIds.size() ? callIds.get(responses) : "call_" + responses);
        responses++;
        messages.add(new JsonObject().put("role", "tool").put("tool_call_id", id)
            .put("content", response.getJsonObject("response", new JsonObject()).encode()));
      } else if (part.getValue("text") instanceof String t) {
        text.append(text.length() == 0 ? "" : "\n").append(t);
      }
    }
    if (text.length() > 0) {
      messages.add(new JsonObject().put("role", "user").put("content", text.toString()));
    }
  }
}
