package io.quarry.llm;

import static io.quarry.llm.TurnHarness.row;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.ChatMessage;
import io.quarry.bus.TokenUsage;
import io.quarry.testing.EventLog;
import io.quarry.testing.FakeModel;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The responses real models send besides a plain answer — empty ones, malformed calls, refusals, cut-off answers,
 * parallel calls, thoughts — never end a turn in a silent blank answer. Gemini's own (its finish reasons, a blocked
 * prompt) here; OpenAI's own in {@link OpenAiModelVariantsTest}, which runs all of these too.
 */
class ModelVariantsTest extends TurnTestBase {

  static final String CUT_OFF = "The answer was cut off at the model's output limit.";

  /** For Gemini, the seed's words. */
  private String empty() {
    return turn.speaker() + " returned an empty answer; try asking again or rephrasing";
  }

  private String malformed() {
    return turn.speaker() + " could not form a valid tool call; try asking again or rephrasing";
  }

  private void geminiOnly() {
    org.junit.jupiter.api.Assumptions.assumeTrue(turn.speaksGemini(), "Gemini's own finish reasons");
  }

  @Test
  @DisplayName("an empty response after a tool round is asked again once with the same request; its tokens count, it is no tool call")
  void emptyThenAnswer() throws Exception {
    turn.answers("SELECT count(*) AS n FROM table1", List.of("n BIGINT"), row(100));
    turn.model.next().call("execute_sql", new JsonObject().put("query", "SELECT count(*) AS n FROM table1")).usage(50, 10);
    turn.model.next().empty(60);
    turn.model.next().text("There are 100 people.").usage(70, 6);
    String id = turn.asked("How many people?");
    List<JsonObject> events = turn.events.untilTurnEnds();
    JsonObject complete = events.get(events.size() - 1);
    assertThat(complete.getString("type")).isEqualTo("chat_complete");
    assertThat(complete.getLong("input_tokens")).isEqualTo(180);
    assertThat(EventLog.tokens(events)).isEqualTo("There are 100 people.");
    var requests = turn.model.requests();
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
  @DisplayName("an empty response twice ends the turn with a clear chat_error, not a blank answer")
  void emptyTwice() throws Exception {
    turn.model.next().empty(40);
    turn.model.next().empty(41);
    turn.asked("Hello?");
    List<JsonObject> events = turn.events.untilTurnEnds();
    JsonObject last = events.get(events.size() - 1);
    assertThat(last.getString("type")).isEqualTo("chat_error");
    assertThat(last.getString("error")).isEqualTo(empty());
    assertThat(turn.model.requests()).hasSize(2);
    assertThat(turn.inputTokens()).isEqualTo(81);
  }

  @Test
  @DisplayName("a malformed tool call (Gemini's MALFORMED_FUNCTION_CALL, OpenAI's arguments that are no JSON) is asked"
      + " again once; the second try's answer is the turn's answer")
  void malformedThenAnswer() throws Exception {
    turn.model.next().malformed(30);
    turn.model.next().answer("Fine now.");
    turn.asked("Count them");
    List<JsonObject> events = turn.events.untilTurnEnds();
    assertThat(events.get(events.size() - 1).getString("type")).isEqualTo("chat_complete");
    assertThat(EventLog.tokens(events)).isEqualTo("Fine now.");
    var requests = turn.model.requests();
    assertThat(requests).hasSize(2);
    assertThat(requests.get(1).body()).isEqualTo(requests.get(0).body());
  }

  @Test
  @DisplayName("a malformed tool call twice ends the turn with a clear chat_error")
  void malformedTwice() throws Exception {
    turn.model.next().malformed(30);
    turn.model.next().malformed(30);
    turn.asked("Count them");
    List<JsonObject> events = turn.events.untilTurnEnds();
    assertThat(events.get(events.size() - 1).getString("error")).isEqualTo(malformed());
    assertThat(turn.model.requests()).hasSize(2);
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
    geminiOnly();
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
    geminiOnly();
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
  @DisplayName("an answer cut off at the output limit (MAX_TOKENS, length) is kept and says so, in the stream and stored")
  void cutOff() throws Exception {
    turn.model.next().text("The first of many ").text("points is").cutOff(30, 8192);
    turn.asked("Write a lot");
    List<JsonObject> events = turn.events.untilTurnEnds();
    JsonObject last = events.get(events.size() - 1);
    assertThat(last.getString("type")).isEqualTo("chat_complete");
    assertThat(last.getString("notice")).isEqualTo(CUT_OFF);
    assertThat(EventLog.tokens(events)).isEqualTo("The first of many points is");
    ChatMessage stored = answer();
    assertThat(stored.content()).isEqualTo("The first of many points is");
    assertThat(stored.notice()).isEqualTo(CUT_OFF);
    assertThat(turn.model.requests()).hasSize(1);
    assertAnotherQuestionWorks();
  }

  @Test
  @DisplayName("several tool calls in one response all run in order, each counts toward the 5-call limit and is answered")
  void parallelCalls() throws Exception {
    FakeModel.Script six = turn.model.next();
    for (int i = 0; i < 6; i++) {
      turn.answers("SELECT " + i + " AS k", List.of("k INTEGER"), row(i));
      six.call("execute_sql", new JsonObject().put("query", "SELECT " + i + " AS k"));
    }
    six.usage(50, 30);
    turn.model.next().answer("Done.");
    turn.asked("Run six");
    List<JsonObject> events = turn.events.untilTurnEnds();
    List<JsonObject> results = events.stream().filter(e -> "query_result".equals(e.getString("type"))).toList();
    assertThat(results).extracting(e -> e.getString("sql"))
        .containsExactly("SELECT 0 AS k", "SELECT 1 AS k", "SELECT 2 AS k", "SELECT 3 AS k", "SELECT 4 AS k");
    var second = turn.model.requests().get(1);
    List<JsonObject> responses = second.functionResponses();
    assertThat(responses).hasSize(6).allSatisfy(r -> assertThat(r.getString("name")).isEqualTo("execute_sql"));
    assertThat(responses.get(4).getJsonObject("response").encode()).contains("result_id");
    assertThat(responses.get(5).getJsonObject("response").getString("error")).startsWith("Not executed");
    assertThat(TurnHarness.toolMode(second)).isEqualTo("NONE");
  }

  @Test
  @DisplayName("thought parts never reach the user or the answer, and thinking tokens are billed as output")
  void thoughts() throws Exception {
    turn.model.next().thought("**Counting** I should look at the table first.").text("Forty-two.")
        .usage(10, 5, 40);
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
    turn.model.next().answer("Sure.");
    turn.asked("Something else");
    assertThat(turn.events.next("chat_complete").getString("notice")).isNull();
  }
}
