package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.testing.FakeModel;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * What only a whole node shows of the tool loop: datasets through the real pipeline (its events, the new table in the
 * next prompt) and DuckDB's own errors described to Gemini. The loop itself is tested in llm-verticle.
 */
class ChatToolTest extends ChatTestBase {

  @Override
  boolean sharesNode() {
    return true;
  }

  @BeforeEach
  void prepare() {
    chat.addDataset(conversation, "/people.parquet");
  }

  private static JsonObject sql(String query) {
    return new JsonObject().put("query", query);
  }

  @Test
  @DisplayName("TOOL-2: load_dataset runs the validation pipeline; the dataset joins the conversation and the panel hears dataset_loaded")
  void tool2() throws Exception {
    chat.files.route("/cities.parquet").content(io.quarry.testing.ParquetFixtures.write(dir.resolve("c.parquet"),
        "SELECT 'Paris' AS city, 2100000 AS population"));
    String url = chat.files.url("/cities.parquet");
    chat.model().next().call("load_dataset", new JsonObject().put("url", url)).usage(30, 5);
    chat.model().next().answer("Loaded table2.");
    chat.asked(conversation, "Load " + url);
    List<JsonObject> events = socket.untilTurnEnds();
    assertThat(ChatHarness.Socket.types(events)).containsSubsequence("tool_call_start", "dataset_loading", "dataset_loaded",
        "chat_complete");
    JsonObject response = chat.model().requests().get(1).functionResponses().get(0).getJsonObject("response");
    assertThat(response.getString("status")).isEqualTo("loaded");
    assertThat(response.getString("table")).isEqualTo("table2");
    assertThat(chat.conversationJson(conversation).getJsonArray("datasets")).hasSize(2);
  }

  @Test
  @DisplayName("ERR-CORRECT-3: missing column, type mismatch and syntax errors each reach Gemini described, and each is corrected")
  void errCorrect3() throws Exception {
    chat.model().next().call("execute_sql", sql("SELECT salary FROM table1")).usage(10, 1);
    chat.model().next().call("execute_sql", sql("SELECT count(*) FROM table1")).usage(10, 1);
    chat.model().next().answer("Counted.");
    chat.asked(conversation, "one");
    socket.untilTurnEnds();
    chat.model().next().call("execute_sql", sql("SELECT name + 1 FROM table1")).usage(10, 1);
    chat.model().next().call("execute_sql", sql("SELECT name || '1' FROM table1 LIMIT 1")).usage(10, 1);
    chat.model().next().answer("Joined.");
    chat.asked(conversation, "two");
    socket.untilTurnEnds();
    chat.model().next().call("execute_sql", sql("SELECT * FORM table1")).usage(10, 1);
    chat.model().next().call("execute_sql", sql("SELECT * FROM table1 LIMIT 1")).usage(10, 1);
    chat.model().next().answer("Fixed.");
    chat.asked(conversation, "three");
    socket.untilTurnEnds();
    List<? extends FakeModel.Request> requests = chat.model().requests();
    assertThat(lastResponse(requests.get(1)).getString("error")).startsWith("Column 'salary' does not exist. Available columns: table1(");
    assertThat(lastResponse(requests.get(4)).getString("error")).startsWith("Type mismatch: ");
    assertThat(lastResponse(requests.get(7)).getString("error")).startsWith("SQL syntax error at or near");
    assertThat(lastResponse(requests.get(2)).containsKey("result_id")).isTrue();
    assertThat(lastResponse(requests.get(5)).containsKey("result_id")).isTrue();
    assertThat(lastResponse(requests.get(8)).containsKey("result_id")).isTrue();
  }

  private static JsonObject lastResponse(FakeModel.Request request) {
    List<JsonObject> responses = request.functionResponses();
    return responses.get(responses.size() - 1).getJsonObject("response");
  }

  @Test
  @DisplayName("EDGE-1: a Parquet URL in the message is loaded with load_dataset before the answer")
  void edge1() throws Exception {
    chat.files.route("/sales.parquet").content(io.quarry.testing.ParquetFixtures.write(dir.resolve("s.parquet"),
        "SELECT 1 AS id, 9.5 AS amount"));
    String url = chat.files.url("/sales.parquet");
    chat.model().next().call("load_dataset", new JsonObject().put("url", url)).usage(10, 1);
    chat.model().next().call("execute_sql", sql("SELECT sum(amount) AS total FROM table2")).usage(10, 1);
    chat.model().next().answer("Total 9.5.");
    chat.asked(conversation, "What is the total in " + url + " ?");
    List<JsonObject> events = socket.untilTurnEnds();
    List<String> types = ChatHarness.Socket.types(events);
    assertThat(types.indexOf("dataset_loaded")).isLessThan(types.indexOf("query_result"));
    assertThat(types.indexOf("query_result")).isLessThan(types.indexOf("chat_token"));
    assertThat(chat.model().requests().get(1).systemText()).contains("### table2");
  }

}
