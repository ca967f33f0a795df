package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;

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
class GeminiVariantsTest extends ChatTestBase {

  static final String EMPTY = "Gemini returned an empty answer; try asking again or rephrasing";
  static final String MALFORMED = "Gemini could not form a valid tool call; try asking again or rephrasing";
  static final String CUT_OFF = "The answer was cut off at the model's output limit.";

  @Test
  @DisplayName("an empty candidate after a tool round is asked again once with the same request; its tokens count, it is no tool call")
  void emptyThenAnswer() throws Exception {
    chat.addDataset(conversation, "/people.parquet");
    chat.gemini.next().call("execute_sql", new JsonObject().put("query", "SELECT count(*) AS n FROM table1")).usage(50, 10);
    chat.gemini.next().emptyCandidate(60);
    chat.gemini.next().text("There are 100 people.").usage(70, 6);
    String id = chat.asked(conversation, "How many people?");
    List<JsonObject> events = socket.untilTurnEnds();
    JsonObject complete = events.get(events.size() - 1);
    assertThat(complete.getString("type")).isEqualTo("chat_complete");
    assertThat(complete.getLong("input_tokens")).isEqualTo(180);
    assertThat(ChatHarness.Socket.tokens(events)).isEqualTo("There are 100 people.");
    var requests = chat.gemini.requests();
    assertThat(requests).hasSize(3);
    assertThat(requests.get(2).body()).isEqualTo(requests.get(1).body());
    assertThat(chat.sqlite("SELECT COUNT(*) FROM token_usage")).isEqualTo(3);
    assertThat(chat.sqlite("SELECT SUM(input_tokens) FROM token_usage")).isEqualTo(180);
    JsonObject stored = answer();
    assertThat(stored.getString("id")).isEqualTo(id);
    assertThat(stored.getString("content")).isEqualTo("There are 100 people.");
    assertThat(stored.getString("status")).isEqualTo("complete");
    assertThat(stored.getJsonArray("sql")).hasSize(1);
  }

  @Test
  @DisplayName("an empty candidate twice ends the turn with a clear chat_error, not a blank answer")
  void emptyTwice() throws Exception {
    chat.gemini.next().emptyCandidate(40);
    chat.gemini.next().emptyCandidate(41);
    chat.asked(conversation, "Hello?");
    List<JsonObject> events = socket.untilTurnEnds();
    JsonObject last = events.get(events.size() - 1);
    assertThat(last.getString("type")).isEqualTo("chat_error");
    assertThat(last.getString("error")).isEqualTo(EMPTY);
    assertThat(chat.gemini.requests()).hasSize(2);
    assertThat(chat.sqlite("SELECT SUM(input_tokens) FROM token_usage")).isEqualTo(81);
  }

  @Test
  @DisplayName("MALFORMED_FUNCTION_CALL is asked again once; the second try's answer is the turn's answer")
  void malformedThenAnswer() throws Exception {
    chat.gemini.next().finish("MALFORMED_FUNCTION_CALL", 30, 0, 0);
    chat.gemini.next().answer("Fine now.");
    chat.asked(conversation, "Count them");
    List<JsonObject> events = socket.untilTurnEnds();
    assertThat(events.get(events.size() - 1).getString("type")).isEqualTo("chat_complete");
    assertThat(ChatHarness.Socket.tokens(events)).isEqualTo("Fine now.");
    var requests = chat.gemini.requests();
    assertThat(requests).hasSize(2);
    assertThat(requests.get(1).body()).isEqualTo(requests.get(0).body());
  }

  @Test
  @DisplayName("MALFORMED_FUNCTION_CALL twice ends the turn with a clear chat_error")
  void malformedTwice() throws Exception {
    chat.gemini.next().finish("MALFORMED_FUNCTION_CALL", 30, 0, 0);
    chat.gemini.next().finish("MALFORMED_FUNCTION_CALL", 30, 0, 0);
    chat.asked(conversation, "Count them");
    List<JsonObject> events = socket.untilTurnEnds();
    assertThat(events.get(events.size() - 1).getString("error")).isEqualTo(MALFORMED);
    assertThat(chat.gemini.requests()).hasSize(2);
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
    chat.gemini.next().text("Well, ").finish(reason, 30, 2, 0);
    String id = chat.asked(conversation, "Tell me");
    List<JsonObject> events = socket.untilTurnEnds();
    JsonObject last = events.get(events.size() - 1);
    assertThat(last.getString("type")).isEqualTo("chat_complete");
    assertThat(last.getString("notice")).isEqualTo(notice);
    JsonObject stored = answer();
    assertThat(stored.getString("id")).isEqualTo(id);
    assertThat(stored.getString("status")).isEqualTo("declined");
    assertThat(stored.getString("notice")).isEqualTo(notice);
    assertThat(stored.getString("content")).isEqualTo("Well, ");
    assertAnotherQuestionWorks();
  }

  @Test
  @DisplayName("a prompt blocked by promptFeedback (no candidates) is a declined answer that says why")
  void promptBlocked() throws Exception {
    chat.gemini.next().promptBlocked("SAFETY", 25);
    chat.asked(conversation, "Something Gemini will not read");
    List<JsonObject> events = socket.untilTurnEnds();
    String notice = "Gemini declined to read this question for safety reasons.";
    assertThat(events.get(events.size() - 1).getString("notice")).isEqualTo(notice);
    JsonObject stored = answer();
    assertThat(stored.getString("status")).isEqualTo("declined");
    assertThat(stored.getString("notice")).isEqualTo(notice);
    assertThat(chat.sqlite("SELECT SUM(input_tokens) FROM token_usage")).isEqualTo(25);
    assertAnotherQuestionWorks();
  }

  @Test
  @DisplayName("MAX_TOKENS keeps the partial answer and says it was cut off, in the stream and stored")
  void cutOff() throws Exception {
    chat.gemini.next().text("The first of many ").text("points is").finish("MAX_TOKENS", 30, 8192, 0);
    chat.asked(conversation, "Write a lot");
    List<JsonObject> events = socket.untilTurnEnds();
    JsonObject last = events.get(events.size() - 1);
    assertThat(last.getString("type")).isEqualTo("chat_complete");
    assertThat(last.getString("notice")).isEqualTo(CUT_OFF);
    assertThat(ChatHarness.Socket.tokens(events)).isEqualTo("The first of many points is");
    JsonObject stored = answer();
    assertThat(stored.getString("content")).isEqualTo("The first of many points is");
    assertThat(stored.getString("notice")).isEqualTo(CUT_OFF);
    assertThat(chat.gemini.requests()).hasSize(1);
    assertAnotherQuestionWorks();
  }

  @Test
  @DisplayName("several functionCall parts in one response all run in order, each counts toward the 5-call limit and is answered")
  void parallelCalls() throws Exception {
    chat.addDataset(conversation, "/people.parquet");
    JsonObject[] calls = new JsonObject[6];
    for (int i = 0; i < calls.length; i++) {
      calls[i] = new JsonObject().put("name", "execute_sql").put("args", new JsonObject().put("query", "SELECT " + i + " AS k"));
    }
    chat.gemini.next().calls(calls).usage(50, 30);
    chat.gemini.next().answer("Done.");
    chat.asked(conversation, "Run six");
    List<JsonObject> events = socket.untilTurnEnds();
    List<JsonObject> results = events.stream().filter(e -> "query_result".equals(e.getString("type"))).toList();
    assertThat(results).extracting(e -> e.getString("sql"))
        .containsExactly("SELECT 0 AS k", "SELECT 1 AS k", "SELECT 2 AS k", "SELECT 3 AS k", "SELECT 4 AS k");
    var second = chat.gemini.requests().get(1);
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
    chat.gemini.next().thought("**Counting** I should look at the table first.").text("Forty-two.")
        .finish("STOP", 10, 5, 40);
    chat.asked(conversation, "How many?");
    List<JsonObject> events = socket.untilTurnEnds();
    assertThat(ChatHarness.Socket.tokens(events)).isEqualTo("Forty-two.");
    assertThat(events.toString()).doesNotContain("Counting");
    JsonObject complete = events.get(events.size() - 1);
    assertThat(complete.getLong("output_tokens")).isEqualTo(45);
    assertThat(answer().getString("content")).isEqualTo("Forty-two.");
    assertThat(chat.sqlite("SELECT output_tokens FROM token_usage")).isEqualTo(45);
  }

  private JsonObject answer() {
    var messages = chat.conversationJson(conversation).getJsonArray("messages");
    return messages.getJsonObject(messages.size() - 1);
  }

  private void assertAnotherQuestionWorks() throws Exception {
    chat.gemini.next().answer("Sure.");
    chat.asked(conversation, "Something else");
    assertThat(socket.next("chat_complete").getString("notice")).isNull();
  }
}
