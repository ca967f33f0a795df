package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.testing.FakeGemini;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Streaming, stopping, errors and token accounting of chat turns, end to end against the fake Gemini. */
class ChatStreamTest extends ChatTestBase {

  @Override
  Map<String, String> env() {
    // One local user streams twenty answers at once here: the per-user cap (3) is raised to let them run.
    return Map.of("QUARRY_LLM_RESPONSE_TIMEOUT_MS", "1500", "QUARRY_LLM_MAX_TURNS_PER_USER", "20");
  }

  @Test
  @DisplayName("STREAM-1: every token is forwarded as chat_token under the answer's message id, then chat_complete")
  void stream1() throws Exception {
    chat.gemini.next().answer("There ", "are ", "100 ", "people.");
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
    FakeGemini.Script script = chat.gemini.next().text("First").gate("second").text(" second").usage(10, 2);
    chat.asked(conversation, "Hello");
    JsonObject first = socket.next("chat_token");
    assertThat(first.getString("token")).isEqualTo("First");
    assertThat(script.sentNanos()).hasSize(1);
    chat.gemini.release("second");
    assertThat(socket.next("chat_token").getString("token")).isEqualTo(" second");
    socket.next("chat_complete");
  }

  @Test
  @DisplayName("STREAM-2 and STREAM-3: a tool call pauses the tokens, the tool runs, then streaming resumes to chat_complete")
  void stream2and3() throws Exception {
    chat.addDataset(conversation, "/people.parquet");
    chat.gemini.next().text("Let me count. ").call("execute_sql", new JsonObject().put("query", "SELECT count(*) AS n FROM table1"))
        .usage(50, 10);
    chat.gemini.next().answer("There are ", "100 people.");
    chat.asked(conversation, "How many people?");
    List<JsonObject> events = socket.untilTurnEnds();
    assertThat(ChatHarness.Socket.types(events)).containsSubsequence("chat_token", "tool_call_start", "query_result",
        "chat_token", "chat_token", "chat_complete");
    assertThat(ChatHarness.Socket.tokens(events)).isEqualTo("Let me count. There are 100 people.");
    JsonObject result = events.stream().filter(e -> "query_result".equals(e.getString("type"))).findFirst().orElseThrow();
    assertThat(result.getJsonArray("rows")).isEqualTo(new JsonArray().add(new JsonArray().add(100)));
  }

  @Test
  @DisplayName("STREAM-4: stop on a stalled stream cancels it, keeps the partial answer, and sends no chat_complete")
  void stream4() throws Exception {
    FakeGemini.Script script = chat.gemini.next().text("Partial answer").stall();
    String messageId = chat.asked(conversation, "Tell me everything");
    socket.next("chat_token");
    HttpResponse<Buffer> stopped = chat.send(HttpMethod.POST, "/api/conversations/" + conversation + "/stop", null);
    assertThat(stopped.bodyAsJsonObject().getBoolean("stopped")).isTrue();
    script.closed().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    JsonObject saved = chat.conversationJson(conversation).getJsonArray("messages").getJsonObject(1);
    assertThat(saved.getString("id")).isEqualTo(messageId);
    assertThat(saved.getString("content")).isEqualTo("Partial answer");
    assertThat(saved.getString("status")).isEqualTo("cancelled");
    // The next turn works, and no chat_complete of the stopped one ever arrives before its own.
    chat.gemini.next().answer("Next.");
    String next = chat.asked(conversation, "Again");
    JsonObject complete = socket.next("chat_complete");
    assertThat(complete.getString("message_id")).isEqualTo(next);
    assertThat(socket.seen).noneMatch(e -> "chat_complete".equals(e.getString("type"))
        && messageId.equals(e.getString("message_id")));
  }

  @Test
  @DisplayName("EDGE-2: a Gemini 5xx becomes a descriptive chat_error; the connection stays usable")
  void edge2() throws Exception {
    chat.gemini.next().httpError(503, "The model is overloaded. Please try again later.");
    chat.asked(conversation, "Hello?");
    JsonObject error = socket.next("chat_error");
    assertThat(error.getString("error")).isEqualTo("Gemini is unavailable right now (HTTP 503); try again shortly");
    assertThat(error.getString("details")).isEqualTo("The model is overloaded. Please try again later.");
    chat.gemini.next().answer("Back.");
    chat.asked(conversation, "Hello again");
    assertThat(socket.next("chat_complete")).isNotNull();
  }

  @Test
  @DisplayName("EDGE-3: Gemini silent past the timeout: request cancelled, chat_error sent, tokens so far counted")
  void edge3() throws Exception {
    chat.addDataset(conversation, "/people.parquet");
    chat.gemini.next().call("execute_sql", new JsonObject().put("query", "SELECT 1")).usage(40, 5);
    FakeGemini.Script silent = chat.gemini.next().stall();
    chat.asked(conversation, "Slow one");
    JsonObject error = socket.next("chat_error");
    assertThat(error.getString("error")).isEqualTo("Gemini did not respond within 1.5 s");
    silent.closed().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    assertThat(chat.sqlite("SELECT SUM(input_tokens) FROM token_usage")).isEqualTo(40);
    assertThat(chat.sqlite("SELECT COUNT(*) FROM token_usage")).isEqualTo(2);
  }

  @Test
  @DisplayName("TOKEN-1: each request's input and output tokens are recorded with user, model and time")
  void token1() throws Exception {
    chat.gemini.next().text("Hi").usage(120, 7);
    chat.asked(conversation, "Hi");
    socket.next("chat_complete");
    assertThat(chat.sqlite("SELECT COUNT(*) FROM token_usage WHERE input_tokens = 120 AND output_tokens = 7"
        + " AND model_name = 'gemini-2.5-flash' AND user_id IS NOT NULL AND created_at LIKE '20%Z'")).isEqualTo(1);
  }

  @Test
  @DisplayName("TOKEN-2: tokens of a request that fails mid-stream are still recorded")
  void token2() throws Exception {
    chat.gemini.next().chunk(new JsonObject().put("candidates", new JsonArray().add(new JsonObject()
            .put("content", new JsonObject().put("role", "model").put("parts", new JsonArray().add(new JsonObject().put("text", "Hal"))))))
            .put("usageMetadata", new JsonObject().put("promptTokenCount", 33).put("candidatesTokenCount", 4)))
        .streamError(500, "Internal error encountered.");
    chat.asked(conversation, "Break please");
    socket.next("chat_error");
    assertThat(chat.sqlite("SELECT input_tokens + output_tokens FROM token_usage")).isEqualTo(37);
  }

  @Test
  @DisplayName("TOKEN-3: chat_complete carries the tokens summed over every request of the turn")
  void token3() throws Exception {
    chat.addDataset(conversation, "/people.parquet");
    chat.gemini.next().call("execute_sql", new JsonObject().put("query", "SELECT 1 AS one")).usage(100, 10);
    chat.gemini.next().text("Done").usage(150, 20);
    String id = chat.asked(conversation, "Count");
    JsonObject complete = socket.next("chat_complete");
    assertThat(complete.getString("message_id")).isEqualTo(id);
    assertThat(complete.getLong("input_tokens")).isEqualTo(250);
    assertThat(complete.getLong("output_tokens")).isEqualTo(30);
    assertThat(complete.getLong("token_count")).isEqualTo(280);
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
      chat.gemini.next().text("Answer ").pause(50).text("number ").text("ready").usage(10, 3);
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
