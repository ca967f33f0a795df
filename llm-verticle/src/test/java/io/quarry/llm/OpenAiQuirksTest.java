package io.quarry.llm;

import static io.quarry.llm.TurnHarness.row;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.TokenUsage;
import io.quarry.testing.EventLog;
import io.quarry.testing.FakeOpenAI;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A whole turn with the compatible servers' documented quirks: Ollama (no key, no usage unless asked — and none even
 * then —, a call's arguments whole in one delta, ids {@code call_0} again in every response) and vLLM (ids
 * {@code chatcmpl-tool-…}, reasoning from its reasoning parser in {@code reasoning_content}).
 */
@ExtendWith(VertxExtension.class)
class OpenAiQuirksTest {

  private TurnHarness turn;

  @AfterEach
  void close() {
    turn.close();
  }

  private void toolRoundThenAnswer() throws Exception {
    turn.answers("SELECT count(*) AS n FROM table1", List.of("n BIGINT"), row(7));
    turn.model.next().call("execute_sql", new JsonObject().put("query", "SELECT count(*) AS n FROM table1"))
        .usage(50, 10);
    turn.model.next().text("There are ").text("7.").usage(80, 3);
    turn.asked("How many?");
    assertThat(EventLog.tokens(turn.events.untilTurnEnds())).isEqualTo("There are 7.");
  }

  @Test
  @DisplayName("Ollama: no key sent, arguments whole, call_0 ids, no usage at all: the turn runs, its tool result goes"
      + " back paired by id, and its tokens are estimated rather than left at zero")
  void ollama(Vertx vertx) throws Exception {
    turn = new TurnHarness(vertx, new JsonObject().put("openaiApiKey", "").put("openaiModel", "qwen2.5:14b"),
        FakeOpenAI.Quirks.openAI().noUsage().wholeArguments().toolCallIds(index -> "call_" + index));
    toolRoundThenAnswer();
    FakeOpenAI.Request second = (FakeOpenAI.Request) turn.request(1);
    assertThat(second.apiKey()).as("a local server needs no key: none is sent").isEmpty();
    assertThat(second.model()).isEqualTo("qwen2.5:14b");
    List<JsonObject> messages = second.messages();
    assertThat(messages.get(messages.size() - 2).getJsonArray("tool_calls").getJsonObject(0).getString("id"))
        .isEqualTo("call_0");
    assertThat(messages.get(messages.size() - 1).getString("tool_call_id")).isEqualTo("call_0");
    assertThat(turn.usage()).hasSize(2).allSatisfy(u -> assertThat(u.inputTokens()).isPositive());
    assertThat(turn.usage()).extracting(TokenUsage::outputTokens).allSatisfy(t -> assertThat(t).isPositive());
    assertThat(turn.usage()).allSatisfy(u -> assertThat(u.estimated()).isTrue());
    assertThat(turn.llm.usage(TurnHarness.USER).await().estimated()).as("/api/usage marks the figures").isTrue();
  }

  @Test
  @DisplayName("vLLM: chatcmpl-tool- ids, arguments in pieces, reasoning_content hidden from the user and billed as"
      + " output within the completion tokens")
  void vllm(Vertx vertx) throws Exception {
    turn = new TurnHarness(vertx, new JsonObject(),
        FakeOpenAI.Quirks.openAI().toolCallIds(index -> "chatcmpl-tool-" + Integer.toHexString(0xabc0 + index)));
    turn.answers("SELECT 1 AS one", List.of("one INTEGER"), row(1));
    turn.model.next().thought("I should run a query.").call("execute_sql", new JsonObject().put("query",
        "SELECT 1 AS one")).usage(40, 5, 20);
    turn.model.next().thought("It is one.").text("One.").usage(60, 2, 10);
    turn.asked("What is one?");
    List<JsonObject> events = turn.events.untilTurnEnds();
    assertThat(EventLog.tokens(events)).isEqualTo("One.");
    assertThat(events.toString()).doesNotContain("I should run", "It is one");
    FakeOpenAI.Request second = (FakeOpenAI.Request) turn.request(1);
    assertThat(second.messages().get(second.messages().size() - 1).getString("tool_call_id"))
        .isEqualTo("chatcmpl-tool-abc0");
    assertThat(turn.usage()).extracting(TokenUsage::outputTokens).containsExactly(25L, 12L);
    assertThat(turn.answer().content()).isEqualTo("One.");
    assertThat(turn.llm.usage(TurnHarness.USER).await().estimated()).isFalse();
  }
}
