package io.quarry.llm;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.ChatEvents;
import io.quarry.bus.ChatMessage;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * An answer's numbers checked against the results its turn produced, as chat_complete and the stored message carry
 * them: Gemini answers with right, rounded, abbreviated and wrong numbers.
 */
class AnswerNumbersTest extends TurnTestBase {

  @Test
  @DisplayName("right, rounded and abbreviated numbers match their cells; a wrong one is listed with its position")
  void checked() throws Exception {
    turn.dataset("table1", 2, TurnToolTest.PEOPLE);
    String query = "SELECT region, sum(revenue) AS revenue FROM table1 GROUP BY region";
    JsonArray rows = new JsonArray().add(new JsonArray().add("North").add(146284726.86))
        .add(new JsonArray().add("South").add(61387.0));
    String resultId = turn.answers(query, List.of("region VARCHAR", "revenue DOUBLE"), rows).id();
    turn.model.next().call("execute_sql", new JsonObject().put("query", query)).usage(50, 5);
    String answer = "North made 146,284,726.86 (about 146.3M), South 61.4K; in all 2 regions, not 9 of them.";
    turn.model.next().answer(answer);

    turn.asked("Revenue by region?");

    JsonObject complete = turn.events.next(e -> ChatEvents.CHAT_COMPLETE.equals(e.getString("type")));
    JsonObject numbers = complete.getJsonObject("numbers");
    assertThat(numbers.getInteger("checked")).isEqualTo(5);
    assertThat(numbers.getInteger("matched")).isEqualTo(4);
    assertThat(numbers.getJsonArray("unmatched")).containsExactly(new JsonObject().put("text", "9")
        .put("position", answer.indexOf("9 of")));
    JsonObject first = numbers.getJsonArray("cells").getJsonObject(0);
    assertThat(first).isEqualTo(new JsonObject().put("text", "146,284,726.86").put("position", 11)
        .put("result_id", resultId).put("row", 0).put("column", "revenue"));
    ChatMessage stored = turn.answer();
    assertThat(stored.numbers()).isEqualTo(numbers);
  }

  @Test
  @DisplayName("a number the question states is not claimed from the data: the turn's question reaches the check")
  void questionsNumbersAreNotClaims() throws Exception {
    turn.dataset("table1", 2, TurnToolTest.PEOPLE);
    String query = "SELECT region, sum(revenue) AS revenue FROM table1 GROUP BY region";
    JsonArray rows = new JsonArray().add(new JsonArray().add("North").add(146284726.86));
    turn.answers(query, List.of("region VARCHAR", "revenue DOUBLE"), rows);
    turn.model.next().call("execute_sql", new JsonObject().put("query", query)).usage(50, 5);
    String answer = "No: North made 146,284,726.86, not 146.9M.";
    turn.model.next().answer(answer);

    turn.asked("Did North make 146.9M?");

    JsonObject numbers = turn.events.next(e -> ChatEvents.CHAT_COMPLETE.equals(e.getString("type")))
        .getJsonObject("numbers");
    assertThat(numbers.getInteger("checked")).isEqualTo(1);
    assertThat(numbers.getInteger("matched")).isEqualTo(1);
    assertThat(numbers.getJsonArray("unmatched")).isEmpty();
  }
}
