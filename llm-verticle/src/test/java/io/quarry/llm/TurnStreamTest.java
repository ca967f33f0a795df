package io.quarry.llm;

import static io.quarry.llm.TurnHarness.row;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.ChatMessage;
import io.quarry.bus.Failure;
import io.quarry.bus.TokenUsage;
import io.quarry.testing.EventLog;
import io.quarry.testing.Failures;
import io.quarry.testing.FakeModel;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Streaming, stopping, Gemini's errors and token accounting of a turn (STREAM-*, EDGE-2, EDGE-3, TOKEN-*). */
class TurnStreamTest extends TurnTestBase {

  @Override
  JsonObject llmConfig() {
    return new JsonObject().put("responseTimeoutMs", 1500);
  }

  @Test
  @DisplayName("STREAM-1: every token is published as chat_token under the answer's message id, then chat_complete")
  void stream1() throws Exception {
    turn.model.next().answer("There ", "are ", "100 ", "people.");
    String messageId = turn.asked("How many people?");
    List<JsonObject> events = turn.events.untilTurnEnds();
    List<JsonObject> tokens = EventLog.ofType(events, "chat_token");
    assertThat(tokens).extracting(e -> e.getString("token")).containsExactly("There ", "are ", "100 ", "people.");
    assertThat(tokens).allSatisfy(e -> assertThat(e.getString("message_id")).isEqualTo(messageId));
    assertThat(events.get(events.size() - 1).getString("type")).isEqualTo("chat_complete");
    ChatMessage answer = turn.answer();
    assertThat(answer.content()).isEqualTo("There are 100 people.");
    assertThat(answer.id()).isEqualTo(messageId);
    assertThat(turn.messages()).extracting(ChatMessage::role).containsExactly(ChatMessage.USER, ChatMessage.ASSISTANT);
  }

  @Test
  @DisplayName("STREAM-2 and STREAM-3: a tool call pauses the tokens, the tool runs, then streaming resumes to "
      + "chat_complete")
  void stream2and3() throws Exception {
    turn.answers("SELECT count(*) AS n FROM table1", List.of("n BIGINT"), row(100));
    turn.model.next().text("Let me count. ").call("execute_sql", new JsonObject().put("query",
        "SELECT count(*) AS n FROM table1")).usage(50, 10);
    turn.model.next().answer("There are ", "100 people.");
    turn.asked("How many people?");
    List<JsonObject> events = turn.events.untilTurnEnds();
    assertThat(EventLog.types(events)).containsSubsequence("chat_token", "tool_call_start", "query_status",
        "query_result", "chat_token", "chat_token", "chat_complete");
    assertThat(EventLog.tokens(events)).isEqualTo("Let me count. There are 100 people.");
    assertThat(EventLog.ofType(events, "query_result").get(0).getJsonArray("rows")).isEqualTo(row(100));
  }

  @Test
  @DisplayName("STREAM-4: stop on a stalled stream cancels it, keeps the partial answer, and sends no chat_complete")
  void stream4() throws Exception {
    FakeModel.Script script = turn.model.next().text("Partial answer").stall();
    String messageId = turn.asked("Tell me everything");
    turn.events.next("chat_token");
    assertThat(turn.llm.stop(TurnHarness.USER, turn.conversation).await().stopped()).isTrue();
    script.closed().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    ChatMessage saved = turn.messages().get(1);
    assertThat(saved.id()).isEqualTo(messageId);
    assertThat(saved.content()).isEqualTo("Partial answer");
    assertThat(saved.status()).isEqualTo(ChatMessage.CANCELLED);
    // The next turn works, and no chat_complete of the stopped one ever arrives before its own.
    turn.model.next().answer("Next.");
    String next = turn.asked("Again");
    assertThat(turn.events.next("chat_complete").getString("message_id")).isEqualTo(next);
    assertThat(turn.events.seen()).noneMatch(e -> "chat_complete".equals(e.getString("type"))
        && messageId.equals(e.getString("message_id")));
    assertThat(turn.llm.stop(TurnHarness.USER, turn.conversation).await().stopped()).isFalse();
  }

  @Test
  @DisplayName("a second question while an answer runs is refused with 'Generation already in progress for this "
      + "conversation'")
  void oneTurnAtATime() throws Exception {
    turn.model.next().text("Thinking").stall();
    turn.asked("First");
    turn.events.next("chat_token");
    Throwable refused = Failures.failure(turn.llm.start(TurnHarness.USER, turn.conversation, "Second"));
    assertThat(Failure.classify(refused)).isEqualTo(Failure.CONFLICT);
    assertThat(Failure.messageOf(refused)).isEqualTo(Turns.IN_PROGRESS);
  }

  @Test
  @DisplayName("EDGE-2: a Gemini 5xx becomes a descriptive chat_error; the next question is answered")
  void edge2() throws Exception {
    turn.model.next().httpError(503, "The model is overloaded. Please try again later.");
    turn.asked("Hello?");
    JsonObject error = turn.events.next("chat_error");
    assertThat(error.getString("error")).isEqualTo(turn.speaker()
        + " is unavailable right now (HTTP 503); try again shortly");
    assertThat(error.getString("details")).isEqualTo("The model is overloaded. Please try again later.");
    turn.model.next().answer("Back.");
    turn.asked("Hello again");
    assertThat(EventLog.tokens(turn.events.untilTurnEnds())).isEqualTo("Back.");
  }

  @Test
  @DisplayName("a model that answers slowly, every piece within the timeout, is never cut off however long it takes in"
      + " all; one that then goes quiet mid-answer is, keeping what it said")
  void quietOnlyBetweenPieces() throws Exception {
    turn.model.next().text("Slow ").pause(600).text("but ").pause(600).text("steady ").pause(600).text("wins.")
        .usage(20, 4);
    turn.asked("Take your time");
    List<JsonObject> events = turn.events.untilTurnEnds();
    assertThat(EventLog.tokens(events)).isEqualTo("Slow but steady wins.");
    assertThat(events.get(events.size() - 1).getString("type")).isEqualTo("chat_complete");
    turn.model.next().text("Half ").pause(600).text("an ").stall();
    turn.asked("And again");
    assertThat(turn.events.next("chat_error").getString("error"))
        .isEqualTo(turn.speaker() + " did not respond within 1.5 s");
    assertThat(turn.answer().content()).isEqualTo("Half an ");
  }

  @Test
  @DisplayName("EDGE-3: Gemini silent past the timeout: request cancelled, chat_error sent, tokens so far counted")
  void edge3() throws Exception {
    turn.answers("SELECT 1", List.of("1 INTEGER"), row(1));
    turn.model.next().call("execute_sql", new JsonObject().put("query", "SELECT 1")).usage(40, 5);
    FakeModel.Script silent = turn.model.next().stall();
    turn.asked("Slow one");
    assertThat(turn.events.next("chat_error").getString("error"))
        .isEqualTo(turn.speaker() + " did not respond within 1.5 s");
    silent.closed().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    assertThat(turn.usage()).hasSize(2);
    assertThat(turn.usage().get(0).inputTokens()).isEqualTo(40);
    if (turn.speaksGemini()) {
      assertThat(turn.usage().get(1).inputTokens()).as("Gemini said nothing of the silent request").isZero();
    } else {
      // OpenAI's usage comes only at a response's end: the silent request's prompt is estimated, so budgets hold.
      assertThat(turn.usage().get(1).inputTokens()).as("the silent request's estimated prompt").isPositive();
    }
  }

  @Test
  @DisplayName("an event of a shape the provider's SDK cannot read fails the answer at once, saying so, not at the"
      + " idle timeout")
  void oddEvent() throws Exception {
    turn.model.next().text("Start").oddEvent().stall();
    turn.asked("Hello?");
    assertThat(turn.events.next("chat_error").getString("error"))
        .isEqualTo(turn.speaker() + " sent an event Quarry could not read");
  }

  @Test
  @DisplayName("an event that is not JSON fails the answer at once, saying so; text that quotes \"error\" is text")
  void notJson() throws Exception {
    turn.model.next().answer("The \"error\" column ", "is empty.");
    turn.asked("Which column is empty?");
    assertThat(EventLog.tokens(turn.events.untilTurnEnds())).isEqualTo("The \"error\" column is empty.");
    turn.model.next().text("Start").rawEvent("{\"candidates\": [").stall();
    turn.asked("Hello?");
    assertThat(turn.events.next("chat_error").getString("error"))
        .isEqualTo(turn.speaker() + " sent an event that is not JSON");
  }

  @Test
  @DisplayName("TOKEN-1: each request's input and output tokens are recorded with user, conversation, model and time")
  void token1() throws Exception {
    turn.model.next().text("Hi").usage(120, 7);
    turn.asked("Hi");
    turn.events.next("chat_complete");
    TokenUsage recorded = turn.usage().get(0);
    assertThat(turn.usage()).hasSize(1);
    assertThat(recorded.inputTokens()).isEqualTo(120);
    assertThat(recorded.outputTokens()).isEqualTo(7);
    assertThat(recorded.modelName()).isEqualTo(turn.modelName());
    assertThat(recorded.userId()).isEqualTo(TurnHarness.USER);
    assertThat(recorded.conversationId()).isEqualTo(turn.conversation);
  }

  @Test
  @DisplayName("TOKEN-2: tokens of a request that fails mid-stream are still recorded")
  void token2() throws Exception {
    org.junit.jupiter.api.Assumptions.assumeTrue(turn.speaksGemini(), "Gemini sends usage with every chunk;"
        + " OpenAiTurnTest has OpenAI's case, whose usage comes only at the end");
    turn.gemini().next().chunk(new JsonObject().put("candidates", new JsonArray().add(new JsonObject()
            .put("content", new JsonObject().put("role", "model").put("parts", new JsonArray()
                .add(new JsonObject().put("text", "Hal"))))))
            .put("usageMetadata", new JsonObject().put("promptTokenCount", 33).put("candidatesTokenCount", 4)))
        .streamError(500, "Internal error encountered.");
    turn.asked("Break please");
    turn.events.next("chat_error");
    assertThat(turn.usage()).extracting(u -> u.inputTokens() + u.outputTokens()).containsExactly(37L);
  }

  @Test
  @DisplayName("TOKEN-3: chat_complete carries the tokens summed over every request of the turn")
  void token3() throws Exception {
    turn.answers("SELECT 1 AS one", List.of("one INTEGER"), row(1));
    turn.model.next().call("execute_sql", new JsonObject().put("query", "SELECT 1 AS one")).usage(100, 10);
    turn.model.next().text("Done").usage(150, 20);
    String id = turn.asked("Count");
    JsonObject complete = turn.events.next("chat_complete");
    assertThat(complete.getString("message_id")).isEqualTo(id);
    assertThat(complete.getLong("input_tokens")).isEqualTo(250);
    assertThat(complete.getLong("output_tokens")).isEqualTo(30);
    assertThat(complete.getLong("token_count")).isEqualTo(280);
  }
}
