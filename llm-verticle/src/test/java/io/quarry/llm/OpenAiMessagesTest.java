package io.quarry.llm;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The stored conversation (Gemini's contents) as Chat Completions messages. */
class OpenAiMessagesTest {

  private static JsonObject content(String role, JsonObject... parts) {
    return new JsonObject().put("role", role).put("parts", new JsonArray(java.util.List.of((Object[]) parts)));
  }

  private static JsonObject text(String text) {
    return new JsonObject().put("text", text);
  }

  @Test
  @DisplayName("system prompt first; a tool round becomes an assistant message with tool_calls and role: tool messages"
      + " paired by tool_call_id; thoughts are left out")
  void toolRound() {
    JsonArray messages = OpenAiMessages.of("You are Quarry.", new JsonArray()
        .add(content("user", text("How many?")))
        .add(content("model", new JsonObject().put("text", "thinking...").put("thought", true),
            new JsonObject().put("functionCall", new JsonObject().put("id", "call_x").put("name", "execute_sql")
                .put("args", new JsonObject().put("query", "SELECT 1")))))
        .add(content("user", new JsonObject().put("functionResponse", new JsonObject().put("id", "call_x")
            .put("name", "execute_sql").put("response", new JsonObject().put("rows", 1)))))
        .add(content("model", text("One."))));
    assertThat(messages).containsExactly(
        new JsonObject().put("role", "system").put("content", "You are Quarry."),
        new JsonObject().put("role", "user").put("content", "How many?"),
        new JsonObject().put("role", "assistant").put("content", null).put("tool_calls", new JsonArray().add(
            new JsonObject().put("id", "call_x").put("type", "function").put("function", new JsonObject()
                .put("name", "execute_sql").put("arguments", "{\"query\":\"SELECT 1\"}")))),
        new JsonObject().put("role", "tool").put("tool_call_id", "call_x").put("content", "{\"rows\":1}"),
        new JsonObject().put("role", "assistant").put("content", "One."));
  }

  @Test
  @DisplayName("calls stored without ids (answered by Gemini) get ids, and their responses, in the same order, the"
      + " same; a limit's instruction after them is a user message")
  void idsGiven() {
    JsonArray messages = OpenAiMessages.of("s", new JsonArray()
        .add(content("model",
            new JsonObject().put("functionCall", new JsonObject().put("name", "a").put("args", new JsonObject())),
            new JsonObject().put("functionCall", new JsonObject().put("name", "b").put("args", new JsonObject()))))
        .add(content("user",
            new JsonObject().put("functionResponse", new JsonObject().put("name", "a").put("response", new JsonObject())),
            new JsonObject().put("functionResponse", new JsonObject().put("name", "b").put("response", new JsonObject())),
            text("Answer now."))));
    JsonArray calls = messages.getJsonObject(1).getJsonArray("tool_calls");
    assertThat(messages.getJsonObject(2).getString("tool_call_id")).isEqualTo(calls.getJsonObject(0).getString("id"));
    assertThat(messages.getJsonObject(3).getString("tool_call_id")).isEqualTo(calls.getJsonObject(1).getString("id"));
    assertThat(calls.getJsonObject(0).getString("id")).isNotEqualTo(calls.getJsonObject(1).getString("id"));
    assertThat(messages.getJsonObject(4)).isEqualTo(new JsonObject().put("role", "user").put("content", "Answer now."));
  }
}
