package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.testing.FakeGemini;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The tool loop end to end: SQL on the real worker, datasets through the real pipeline, charts by tool. */
class ChatToolTest extends ChatTestBase {

  @BeforeEach
  void prepare() {
    chat.addDataset(conversation, "/people.parquet");
  }

  private static JsonObject sql(String query) {
    return new JsonObject().put("query", query);
  }

  @Test
  @DisplayName("TOOL-1: execute_sql runs on the worker and its result goes back to Gemini, thought signature kept")
  void tool1() throws Exception {
    chat.gemini.next().call("execute_sql", sql("SELECT count(*) AS n FROM table1 WHERE active")).usage(50, 5);
    chat.gemini.next().answer("50 people are active.");
    chat.asked(conversation, "How many are active?");
    List<JsonObject> events = socket.untilTurnEnds();
    assertThat(ChatHarness.Socket.tokens(events)).isEqualTo("50 people are active.");

    FakeGemini.Request second = chat.gemini.requests().get(1);
    JsonObject response = second.functionResponses().get(0);
    assertThat(response.getString("name")).isEqualTo("execute_sql");
    assertThat(response.getJsonObject("response").getJsonArray("rows")).isEqualTo(new JsonArray().add(new JsonArray().add(50)));
    assertThat(response.getJsonObject("response").getString("summary"))
        .isEqualTo("Query executed successfully. Returned 1 rows with columns: [n]. Sample data: [[50]]");
    JsonObject modelTurn = second.contents().getJsonObject(second.contents().size() - 2);
    assertThat(modelTurn.getString("role")).isEqualTo("model");
    assertThat(modelTurn.getJsonArray("parts").getJsonObject(0).getString("thoughtSignature")).isNotBlank();

    JsonObject stored = chat.conversationJson(conversation).getJsonArray("messages").getJsonObject(1);
    assertThat(stored.getJsonArray("sql")).containsExactly("SELECT count(*) AS n FROM table1 WHERE active");
    assertThat(stored.getJsonArray("result_ids")).hasSize(1);
  }

  @Test
  @DisplayName("TOOL-2: load_dataset runs the validation pipeline; the dataset joins the conversation and the panel hears dataset_loaded")
  void tool2() throws Exception {
    chat.files.route("/cities.parquet").content(io.quarry.testing.ParquetFixtures.write(dir.resolve("c.parquet"),
        "SELECT 'Paris' AS city, 2100000 AS population"));
    String url = chat.files.url("/cities.parquet");
    chat.gemini.next().call("load_dataset", new JsonObject().put("url", url)).usage(30, 5);
    chat.gemini.next().answer("Loaded table2.");
    chat.asked(conversation, "Load " + url);
    List<JsonObject> events = socket.untilTurnEnds();
    assertThat(ChatHarness.Socket.types(events)).containsSubsequence("tool_call_start", "dataset_loading", "dataset_loaded",
        "chat_complete");
    JsonObject response = chat.gemini.requests().get(1).functionResponses().get(0).getJsonObject("response");
    assertThat(response.getString("status")).isEqualTo("loaded");
    assertThat(response.getString("table")).isEqualTo("table2");
    assertThat(chat.conversationJson(conversation).getJsonArray("datasets")).hasSize(2);
  }

  @Test
  @DisplayName("TOOL-3: several execute_sql calls run in order and the answer uses all results")
  void tool3() throws Exception {
    chat.gemini.next().call("execute_sql", sql("SELECT DISTINCT active FROM table1 ORDER BY 1")).usage(10, 1);
    chat.gemini.next().call("execute_sql", sql("SELECT active, count(*) FROM table1 GROUP BY 1 ORDER BY 1")).usage(20, 1);
    chat.gemini.next().answer("Half and half.");
    chat.asked(conversation, "Split by active?");
    List<JsonObject> events = socket.untilTurnEnds();
    assertThat(events.stream().filter(e -> "query_result".equals(e.getString("type"))).map(e -> e.getString("sql")))
        .containsExactly("SELECT DISTINCT active FROM table1 ORDER BY 1",
            "SELECT active, count(*) FROM table1 GROUP BY 1 ORDER BY 1");
    assertThat(chat.gemini.requests().get(2).functionResponses()).hasSize(2);
  }

  @Test
  @DisplayName("TOOL-4: after the fifth tool call no more run; Gemini is told to answer and tools are switched off")
  void tool4() throws Exception {
    for (int i = 1; i <= 5; i++) {
      chat.gemini.next().call("execute_sql", sql("SELECT " + i + " AS step")).usage(10, 1);
    }
    chat.gemini.next().call("execute_sql", sql("SELECT 6 AS step")).usage(10, 1);
    chat.gemini.next().answer("Here is what I found.");
    chat.asked(conversation, "Explore everything");
    List<JsonObject> events = socket.untilTurnEnds();
    assertThat(events.stream().filter(e -> "query_result".equals(e.getString("type")))).hasSize(5);
    FakeGemini.Request sixth = chat.gemini.requests().get(5);
    assertThat(sixth.body().getJsonObject("toolConfig").getJsonObject("functionCallingConfig").getString("mode"))
        .isEqualTo("NONE");
    assertThat(sixth.contents().getJsonObject(sixth.contents().size() - 1).encode())
        .contains("maximum of 5 tool calls");
    FakeGemini.Request seventh = chat.gemini.requests().get(6);
    assertThat(seventh.functionResponses().get(seventh.functionResponses().size() - 1).getJsonObject("response")
        .getString("error")).startsWith("Not executed");
    assertThat(ChatHarness.Socket.tokens(events)).isEqualTo("Here is what I found.");
  }

  @Test
  @DisplayName("ERR-CORRECT-1: a SQL error goes back to Gemini as the tool response, and the corrected query runs")
  void errCorrect1() throws Exception {
    chat.gemini.next().call("execute_sql", sql("SELEC count(*) FROM table1")).usage(10, 1);
    chat.gemini.next().call("execute_sql", sql("SELECT count(*) AS n FROM table1")).usage(10, 1);
    chat.gemini.next().answer("100.");
    chat.asked(conversation, "Count them");
    List<JsonObject> events = socket.untilTurnEnds();
    assertThat(ChatHarness.Socket.types(events)).containsSubsequence("query_error", "query_result", "chat_complete");
    JsonObject error = chat.gemini.requests().get(1).functionResponses().get(0).getJsonObject("response");
    assertThat(error.getString("error")).isEqualTo("SQL syntax error at or near 'SELEC'");
    assertThat(error.getString("error_type")).isEqualTo("sql");
  }

  @Test
  @DisplayName("ERR-CORRECT-2 and ERR-CORRECT-4: after three failures Gemini is told to explain, and its explanation is the answer")
  void errCorrect2and4() throws Exception {
    for (int i = 0; i < 3; i++) {
      chat.gemini.next().call("execute_sql", sql("SELECT salary FROM table1")).usage(10, 1);
    }
    chat.gemini.next().answer("The table has no salary column.");
    chat.asked(conversation, "Average salary?");
    List<JsonObject> events = socket.untilTurnEnds();
    assertThat(events.stream().filter(e -> "query_error".equals(e.getString("type")))).hasSize(3);
    FakeGemini.Request fourth = chat.gemini.requests().get(3);
    assertThat(fourth.contents().getJsonObject(fourth.contents().size() - 1).encode())
        .contains("The SQL has failed 3 times").contains("explain the error to the user");
    assertThat(fourth.body().getJsonObject("toolConfig").getJsonObject("functionCallingConfig").getString("mode"))
        .isEqualTo("NONE");
    assertThat(chat.conversationJson(conversation).getJsonArray("messages").getJsonObject(1).getString("content"))
        .isEqualTo("The table has no salary column.");
  }

  @Test
  @DisplayName("ERR-CORRECT-3: missing column, type mismatch and syntax errors each reach Gemini described, and each is corrected")
  void errCorrect3() throws Exception {
    chat.gemini.next().call("execute_sql", sql("SELECT salary FROM table1")).usage(10, 1);
    chat.gemini.next().call("execute_sql", sql("SELECT count(*) FROM table1")).usage(10, 1);
    chat.gemini.next().answer("Counted.");
    chat.asked(conversation, "one");
    socket.untilTurnEnds();
    chat.gemini.next().call("execute_sql", sql("SELECT name + 1 FROM table1")).usage(10, 1);
    chat.gemini.next().call("execute_sql", sql("SELECT name || '1' FROM table1 LIMIT 1")).usage(10, 1);
    chat.gemini.next().answer("Joined.");
    chat.asked(conversation, "two");
    socket.untilTurnEnds();
    chat.gemini.next().call("execute_sql", sql("SELECT * FORM table1")).usage(10, 1);
    chat.gemini.next().call("execute_sql", sql("SELECT * FROM table1 LIMIT 1")).usage(10, 1);
    chat.gemini.next().answer("Fixed.");
    chat.asked(conversation, "three");
    socket.untilTurnEnds();
    List<FakeGemini.Request> requests = chat.gemini.requests();
    assertThat(lastResponse(requests.get(1)).getString("error")).startsWith("Column 'salary' does not exist. Available columns: table1(");
    assertThat(lastResponse(requests.get(4)).getString("error")).startsWith("Type mismatch: ");
    assertThat(lastResponse(requests.get(7)).getString("error")).startsWith("SQL syntax error at or near");
    assertThat(lastResponse(requests.get(2)).containsKey("result_id")).isTrue();
    assertThat(lastResponse(requests.get(5)).containsKey("result_id")).isTrue();
    assertThat(lastResponse(requests.get(8)).containsKey("result_id")).isTrue();
  }

  private static JsonObject lastResponse(FakeGemini.Request request) {
    List<JsonObject> responses = request.functionResponses();
    return responses.get(responses.size() - 1).getJsonObject("response");
  }

  @Test
  @DisplayName("EDGE-1: a Parquet URL in the message is loaded with load_dataset before the answer")
  void edge1() throws Exception {
    chat.files.route("/sales.parquet").content(io.quarry.testing.ParquetFixtures.write(dir.resolve("s.parquet"),
        "SELECT 1 AS id, 9.5 AS amount"));
    String url = chat.files.url("/sales.parquet");
    chat.gemini.next().call("load_dataset", new JsonObject().put("url", url)).usage(10, 1);
    chat.gemini.next().call("execute_sql", sql("SELECT sum(amount) AS total FROM table2")).usage(10, 1);
    chat.gemini.next().answer("Total 9.5.");
    chat.asked(conversation, "What is the total in " + url + " ?");
    List<JsonObject> events = socket.untilTurnEnds();
    List<String> types = ChatHarness.Socket.types(events);
    assertThat(types.indexOf("dataset_loaded")).isLessThan(types.indexOf("query_result"));
    assertThat(types.indexOf("query_result")).isLessThan(types.indexOf("chat_token"));
    assertThat(chat.gemini.requests().get(1).systemText()).contains("### table2");
  }

  @Test
  @DisplayName("a chart of the previous result needs no new SQL: the chart event carries the earlier result id")
  void chartOfPreviousResult() throws Exception {
    chat.gemini.next().call("execute_sql", sql("SELECT active, count(*) AS n FROM table1 GROUP BY 1 ORDER BY 1")).usage(10, 1);
    chat.gemini.next().answer("Half are active.");
    chat.asked(conversation, "How many are active?");
    List<JsonObject> first = socket.untilTurnEnds();
    String resultId = first.stream().filter(e -> "query_result".equals(e.getString("type"))).findFirst().orElseThrow()
        .getString("result_id");

    chat.gemini.next().call("render_chart", new JsonObject().put("result_id", resultId).put("chart_type", "pie")
        .put("x", "active").put("y", new JsonArray().add("n"))).usage(10, 1);
    chat.gemini.next().answer("Here is the pie chart.");
    chat.asked(conversation, "show that as a pie chart");
    List<JsonObject> second = socket.untilTurnEnds();
    assertThat(ChatHarness.Socket.types(second)).doesNotContain("query_result");
    JsonObject chart = second.stream().filter(e -> "chart".equals(e.getString("type"))).findFirst().orElseThrow();
    assertThat(chart.getString("result_id")).isEqualTo(resultId);
    assertThat(chart.getJsonObject("spec").getString("chart_type")).isEqualTo("pie");
    // The second request's history told Gemini about the first result and its id.
    assertThat(chat.gemini.requests().get(2).contents().encode()).contains(resultId)
        .contains("Query executed successfully. Returned 2 rows with columns: [active, n]");
    JsonArray charts = chat.conversationJson(conversation).getJsonArray("messages").getJsonObject(3).getJsonArray("charts");
    assertThat(charts.getJsonObject(0).getString("result_id")).isEqualTo(resultId);
  }

  @Test
  @DisplayName("an invalid chart column goes back as a tool error naming the columns, and the corrected call renders")
  void invalidChartCorrected() throws Exception {
    chat.gemini.next().call("execute_sql", sql("SELECT age, count(*) AS n FROM table1 GROUP BY 1 ORDER BY 1")).usage(10, 1);
    chat.gemini.next().answer("Done.");
    chat.asked(conversation, "Ages?");
    String resultId = socket.next("query_result").getString("result_id");
    socket.next("chat_complete");
    chat.gemini.next().call("render_chart", new JsonObject().put("result_id", resultId).put("chart_type", "bar")
        .put("x", "years").put("y", new JsonArray().add("n"))).usage(10, 1);
    chat.gemini.next().call("render_chart", new JsonObject().put("result_id", resultId).put("chart_type", "bar")
        .put("x", "age").put("y", new JsonArray().add("n"))).usage(10, 1);
    chat.gemini.next().answer("Charted.");
    chat.asked(conversation, "bar chart please");
    List<JsonObject> events = socket.untilTurnEnds();
    assertThat(lastResponse(chat.gemini.requests().get(3)).getString("error"))
        .isEqualTo("Column 'years' (x) is not in result " + resultId + "; its columns are: age, n");
    assertThat(events.stream().filter(e -> "chart".equals(e.getString("type")))).hasSize(1);
  }
}
