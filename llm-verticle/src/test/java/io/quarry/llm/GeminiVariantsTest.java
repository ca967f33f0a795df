package io.quarry.llm;

import static io.quarry.llm.TurnHarness.row;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.ChatMessage;
import io.quarry.bus.TokenUsage;
import io.quarry.testing.EventLog;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The responses real Gemini 2.5 Flash sends besides a plain answer — empty candidates, malformed calls,
 * refusals, cut-off answers, parallel calls, thoughts — never end a turn in a silent blank answer.
 */
class GeminiVariantsTest extends TurnTestBase {

  static final String EMPTY = "Gemini returned an empty answer; try asking again or rephrasing";
  static final String MALFORMED = "Gemini could not form a valid tool call; try asking again or rephrasing";
  static final String CUT_OFF = "The answer was cut off at the model's output limit.";

  @Test
  @DisplayName("an empty candidate after a tool round is asked again once with the same request; its tokens count, it is no tool call")
  void emptyThenAnswer() throws Exception {
    turn.answers("SELECT count(*) AS n FROM table1", List.of("n BIGINT"), row(100));
    turn.gemini().next().call("execute_sql", new JsonObject().put("query", "SELECT count(*) AS n FROM table1")).usage(50, 10);
    turn.gemini().next().emptyCandidate(60);
    turn.gemini().next().text("There are 100 people.").usage(70, 6);
    String id = turn.asked("How many people?");
    List<JsonObject> events = turn.events.untilTurnEnds();
    JsonObject complete = events.get(events.size() - 1);
    assertThat(complete.getString("type")).isEqualTo("chat_complete");
    assertThat(complete.getLong("input_tokens")).isEqualTo(180);
    assertThat(EventLog.tokens(events)).isEqualTo("There are 100 people.");
    var requests = turn.gemini().requests();
    assertThat(requests).hasSize(3);
    assertThat(requests.get(2).body()).isEqualTo(requests.get(1).body());
    assertThat(turn.usage()).hasSize(3);
    assertThat(turn.inputTokens()).isEqualTo(180);
    ChatMessage stored = answer();
    assertThat(stored.id()).isEqualTo(id);
    assertThat(stored.content()).isEqualTo("There are 100 people.");
    assertThat(stored.status()).isEqualTo("complete");
    assertThat(stored.sql()).hasSize(1);
  }

  @Test
  @DisplayName("an empty candidate twice ends the turn with a clear chat_error, not a blank answer")
  void emptyTwice() throws Exception {
    turn.gemini().next().emptyCandidate(40);
    turn.gemini().next().emptyCandidate(41);
    turn.asked("Hello?");
    List<JsonObject> events = turn.events.untilTurnEnds();
    JsonObject last = events.get(events.size() - 1);
    assertThat(last.getString("type")).isEqualTo("chat_error");
    assertThat(last.getString("error")).isEqualTo(EMPTY);
    assertThat(turn.gemini().requests()).hasSize(2);
    assertThat(turn.inputTokens()).isEqualTo(81);
  }

  @Test
  @DisplayName("MALFORMED_FUNCTION_CALL is asked again once; the second try's answer is the turn's answer")
  void malformedThenAnswer() throws Exception {
    turn.gemini().next().finish("MALFORMED_FUNCTION_CALL", 30, 0, 0);
    turn.gemini().next().answer("Fine now.");
    turn.asked("Count them");
    List<JsonObject> events = turn.events.untilTurnEnds();
    assertThat(events.get(events.size() - 1).getString("type")).isEqualTo("chat_complete");
    assertThat(EventLog.tokens(events)).isEqualTo("Fine now.");
    var requests = turn.gemini().requests();
    assertThat(requests).hasSize(2);
    assertThat(requests.get(1).body()).isEqualTo(requests.get(0).body());
  }

  @Test
  @DisplayName("MALFORMED_FUNCTION_CALL twice ends the turn with a clear chat_error")
  void malformedTwice() throws Exception {
    turn.gemini().next().finish("MALFORMED_FUNCTION_CALL", 30, 0, 0);
    turn.gemini().next().finish("MALFORMED_FUNCTION_CALL", 30, 0, 0);
    turn.asked("Count them");
    List<JsonObject> events = turn.events.untilTurnEnds();
    assertThat(events.get(events.size() - 1).getString("error")).isEqualTo(MALFORMED);
    assertThat(turn.gemini().requests()).hasSize(2);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "SAFETY|Gemini declined to answer for safety reasons.",
      "RECITATION|Gemini declined to answer because the answer would have recited copyrighted or published material.",
      "PROHIBITED_CONTENT|Gemini declined to answer because the request touches content Google prohibits.",
      "BLOCKLIST|Gemini declined to answer because the answer contained terms on Google's blocklist.",
      "SPII|Gemini declined to answer because the answer would have revealed sensitive personal information."})
  @DisplayName("a declined answer says why in words, in the stream and in the stored message a reload shows")
  void declined(String reason, String notice) throws Exception {
    turn.gemini().next().text("Well, ").finish(reason, 30, 2, 0);
    String id = turn.asked("Tell me");
    List<JsonObject> events = turn.events.untilTurnEnds();
    JsonObject last = events.get(events.size() - 1);
    assertThat(last.getString("type")).isEqualTo("chat_complete");
    assertThat(last.getString("notice")).isEqualTo(notice);
    ChatMessage stored = answer();
    assertThat(stored.id()).isEqualTo(id);
    assertThat(stored.status()).isEqualTo("declined");
    assertThat(stored.notice()).isEqualTo(notice);
    assertThat(stored.content()).isEqualTo("Well, ");
    assertAnotherQuestionWorks();
  }

  @Test
  @DisplayName("a prompt blocked by promptFeedback (no candidates) is a declined answer that says why")
  void promptBlocked() throws Exception {
    turn.gemini().next().promptBlocked("SAFETY", 25);
    turn.asked("Something Gemini will not read");
    List<JsonObject> events = turn.events.untilTurnEnds();
    String notice = "Gemini declined to read this question for safety reasons.";
    assertThat(events.get(events.size() - 1).getString("notice")).isEqualTo(notice);
    ChatMessage stored = answer();
    assertThat(stored.status()).isEqualTo("declined");
    assertThat(stored.notice()).isEqualTo(notice);
    assertThat(turn.inputTokens()).isEqualTo(25);
    assertAnotherQuestionWorks();
  }

  @Test
  @DisplayName("MAX_TOKENS keeps the partial answer and says it was cut off, in the stream and stored")
  void cutOff() throws Exception {
    turn.gemini().next().text("The first of many ").text("points is").finish("MAX_TOKENS", 30, 8192, 0);
    turn.asked("Write a lot");
    List<JsonObject> events = turn.events.untilTurnEnds();
    JsonObject last = events.get(events.size() - 1);
    assertThat(last.getString("type")).isEqualTo("chat_complete");
    assertThat(last.getString("notice")).isEqualTo(CUT_OFF);
    assertThat(EventLog.tokens(events)).isEqualTo("The first of many points is");
    ChatMessage stored = answer();
    assertThat(stored.content()).isEqualTo("The first of many points is");
    assertThat(stored.notice()).isEqualTo(CUT_OFF);
    assertThat(turn.gemini().requests()).hasSize(1);
    assertAnotherQuestionWorks();
  }

  @Test
  @DisplayName("several functionCall parts in one response all run in order, each counts toward the 5-call limit and is answered")
  void parallelCalls() throws Exception {
    JsonObject[] calls = new JsonObject[6];
    for (int i = 0; i < calls.length; i++) {
      turn.answers("SELECT " + i + " AS k", List.of("k INTEGER"), row(i));
      calls[i] = new JsonObject().put("name", "execute_sql").put("args", new JsonObject().put("query", "SELECT " + i + " AS k"));
    }
    turn.gemini().next().calls(calls).usage(50, 30);
    turn.gemini().next().answer("Done.");
    turn.asked("Run six");
    List<JsonObject> events = turn.events.untilTurnEnds();
    List<JsonObject> results = events.stream().filter(e -> "query_result".equals(e.getString("type"))).toList();
    assertThat(results).extracting(e -> e.getString("sql"))
        .containsExactly("SELECT 0 AS k", "SELECT 1 AS k", "SELECT 2 AS k", "SELECT 3 AS k", "SELECT 4 AS k");
    var second = turn.gemini().requests().get(1);
    List<JsonObject> responses = second.functionResponses();
    assertThat(responses).hasSize(6).allSatisfy(r -> assertThat(r.getString("name")).isEqualTo("execute_sql"));
    assertThat(responses.get(4).getJsonObject("response").encode()).contains("result_id");
    assertThat(responses.get(5).getJsonObject("response").getString("error")).startsWith("Not executed");
    assertThat(second.body().getJsonObject("toolConfig").getJsonObject("functionCallingConfig").getString("mode"))
        .isEqualTo("NONE");
  }

  @Test
  @DisplayName("thought parts never reach the user or the answer, and thinking tokens are billed as output")
  void thoughts() throws Exception {
    turn.gemini().next().thought("**Counting** I should look at the table first.").text("Forty-two.")
        .finish("STOP", 10, 5, 40);
    turn.asked("How many?");
    List<JsonObject> events = turn.events.untilTurnEnds();
    assertThat(EventLog.tokens(events)).isEqualTo("Forty-two.");
    assertThat(events.toString()).doesNotContain("Counting");
    JsonObject complete = events.get(events.size() - 1);
    assertThat(complete.getLong("output_tokens")).isEqualTo(45);
    assertThat(answer().content()).isEqualTo("Forty-two.");
    assertThat(turn.usage()).extracting(TokenUsage::outputTokens).containsExactly(45L);
  }

  private ChatMessage answer() {
    return turn.answer();
  }

  private void assertAnotherQuestionWorks() throws Exception {
    turn.gemini().next().answer("Sure.");
    turn.asked("Something else");
    assertThat(turn.events.next("chat_complete").getString("notice")).isNull();
  }
}
