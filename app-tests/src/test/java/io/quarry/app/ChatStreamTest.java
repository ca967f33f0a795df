package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.testing.FakeModel;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * What only a whole node shows of streaming: tokens and a real query's result through the real WebSocket, in real
 * time, for many conversations at once. Stopping, Gemini's errors and token accounting are tested in llm-verticle.
 */
class ChatStreamTest extends ChatTestBase {

  @Override
  boolean sharesNode() {
    return true;
  }

  @Override
  Map<String, String> env() {
    // One local user streams twenty answers at once here: the per-user cap (3) is raised to let them run.
    return Map.of("QUARRY_LLM_MAX_TURNS_PER_USER", "20");
  }

  @Test
  @DisplayName("STREAM-1: every token is forwarded as chat_token under the answer's message id, then chat_complete")
  void stream1() throws Exception {
    chat.model().next().answer("There ", "are ", "100 ", "people.");
    String messageId = chat.asked(conversation, "How many people?");
    List<JsonObject> events = socket.untilTurnEnds();
    List<JsonObject> tokens = events.stream().filter(e -> "chat_token".equals(e.getString("type"))).toList();
    assertThat(tokens).extracting(e -> e.getString("token")).containsExactly("There ", "are ", "100 ", "people.");
    assertThat(tokens).allSatisfy(e -> assertThat(e.getString("message_id")).isEqualTo(messageId));
    assertThat(events.get(events.size() - 1).getString("type")).isEqualTo("chat_complete");
    JsonArray messages = chat.conversationJson(conversation).getJsonArray("messages");
    assertThat(messages.getJsonObject(1).getString("content")).isEqualTo("There are 100 people.");
    assertThat(messages.getJsonObject(1).getString("id")).isEqualTo(messageId);
  }

  @Test
  @DisplayName("real time: a chunk reaches the WebSocket before Gemini sends the next one")
  void realTime() throws Exception {
    FakeModel.Script script = chat.model().next().text("First").gate("second").text(" second").usage(10, 2);
    chat.asked(conversation, "Hello");
    JsonObject first = socket.next("chat_token");
    assertThat(first.getString("token")).isEqualTo("First");
    assertThat(script.sentNanos()).hasSize(1);
    chat.model().release("second");
    assertThat(socket.next("chat_token").getString("token")).isEqualTo(" second");
    socket.next("chat_complete");
  }

  @Test
  @DisplayName("STREAM-2 and STREAM-3: a tool call pauses the tokens, the tool runs, then streaming resumes to chat_complete")
  void stream2and3() throws Exception {
    chat.addDataset(conversation, "/people.parquet");
    chat.model().next().text("Let me count. ").call("execute_sql", new JsonObject().put("query", "SELECT count(*) AS n FROM table1"))
        .usage(50, 10);
    chat.model().next().answer("There are ", "100 people.");
    chat.asked(conversation, "How many people?");
    List<JsonObject> events = socket.untilTurnEnds();
    assertThat(ChatHarness.Socket.types(events)).containsSubsequence("chat_token", "tool_call_start", "query_result",
        "chat_token", "chat_token", "chat_complete");
    assertThat(ChatHarness.Socket.tokens(events)).isEqualTo("Let me count. There are 100 people.");
    JsonObject result = events.stream().filter(e -> "query_result".equals(e.getString("type"))).findFirst().orElseThrow();
    assertThat(result.getJsonArray("rows")).isEqualTo(new JsonArray().add(new JsonArray().add(100)));
  }

  @Test
  @DisplayName("twenty conversations at once each get their own, complete answer")
  void concurrent() throws Exception {
    List<String> conversations = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      conversations.add(chat.conversation());
    }
    // Scripts are taken in arrival order, so every answer names its own conversation only through the content.
    for (int i = 0; i < 20; i++) {
      chat.model().next().text("Answer ").pause(50).text("number ").text("ready").usage(10, 3);
    }
    Map<String, String> ids = new java.util.HashMap<>();
    for (String c : conversations) {
      String id = chat.asked(c, "Question for " + c);
      ids.put(id, c);
    }
    Map<String, StringBuilder> texts = new java.util.HashMap<>();
    int completed = 0;
    while (completed < 20) {
      JsonObject e = socket.next(x -> true);
      if ("chat_token".equals(e.getString("type"))) {
        texts.computeIfAbsent(e.getString("message_id"), k -> new StringBuilder()).append(e.getString("token"));
      } else if ("chat_complete".equals(e.getString("type"))) {
        completed++;
      }
    }
    assertThat(texts).hasSize(20);
    assertThat(texts.keySet()).containsExactlyInAnyOrderElementsOf(ids.keySet());
    assertThat(texts.values()).allSatisfy(t -> assertThat(t.toString()).isEqualTo("Answer number ready"));
    for (String c : conversations) {
      assertThat(chat.conversationJson(c).getJsonArray("messages").getJsonObject(1).getString("content"))
          .isEqualTo("Answer number ready");
    }
  }
}
