package io.quarry.llm;

import static io.quarry.bus.Addresses.DATASET_ADD;
import static io.quarry.bus.Addresses.DATASET_QUERY_RUN;
import static io.quarry.llm.TurnHarness.column;
import static io.quarry.llm.TurnHarness.lastResponse;
import static io.quarry.llm.TurnHarness.row;
import static io.quarry.llm.TurnHarness.toolMode;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.ChartData;
import io.quarry.bus.ChatMessage;
import io.quarry.bus.Failure;
import io.quarry.bus.Profile;
import io.quarry.bus.QuarryException;
import io.quarry.bus.QueryResult;
import io.quarry.testing.EventLog;
import io.quarry.testing.FakeModel;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The tool loop of llm-test.md (TOOL-*, ERR-CORRECT-*, EDGE-1) and charts by tool, with the llm verticle alone:
 * SQL and loads are answered by a fake dataset service, as the whole node's tests answer them with DuckDB.
 */
class TurnToolTest extends TurnTestBase {

  static final JsonArray PEOPLE = new JsonArray().add(column("name", "VARCHAR", "Text"))
      .add(column("age", "INTEGER", "Integer")).add(column("active", "BOOLEAN", "Boolean"));

  @BeforeEach
  void people() {
    turn.dataset("table1", 100, PEOPLE);
  }

  private static JsonObject sql(String query) {
    return new JsonObject().put("query", query);
  }

  @Test
  @DisplayName("TOOL-1: execute_sql runs through dataset.query.run and its result goes back to Gemini, thought "
      + "signature kept")
  void tool1() throws Exception {
    String query = "SELECT count(*) AS n FROM table1 WHERE active";
    QueryResult result = turn.answers(query, List.of("n BIGINT"), row(50));
    turn.model.next().call("execute_sql", sql(query)).usage(50, 5);
    turn.model.next().answer("50 people are active.");

    turn.asked("How many are active?");

    assertThat(EventLog.tokens(turn.events.untilTurnEnds())).isEqualTo("50 people are active.");
    assertThat(turn.datasets.queries().await()).containsExactly(query);
    FakeModel.Request second = turn.request(1);
    JsonObject response = second.functionResponses().get(0);
    assertThat(response.getString("name")).isEqualTo("execute_sql");
    assertThat(response.getJsonObject("response").getJsonArray("rows")).isEqualTo(row(50));
    assertThat(response.getJsonObject("response").getString("summary"))
        .isEqualTo("Query executed successfully. Returned 1 rows with columns: [n]. Sample data: [[50]]");
    if (turn.speaksGemini()) {
      // Gemini's content goes back exactly as received, its thought signature included.
      JsonArray contents = second.body().getJsonArray("contents");
      JsonObject modelTurn = contents.getJsonObject(contents.size() - 2);
      assertThat(modelTurn.getString("role")).isEqualTo("model");
      assertThat(modelTurn.getJsonArray("parts").getJsonObject(0).getString("thoughtSignature")).isNotBlank();
    } else {
      // The assistant's tool_calls go back before the tool's answer, paired by id.
      JsonArray messages = second.body().getJsonArray("messages");
      JsonObject call = messages.getJsonObject(messages.size() - 2).getJsonArray("tool_calls").getJsonObject(0);
      assertThat(call.getJsonObject("function").getString("name")).isEqualTo("execute_sql");
      assertThat(messages.getJsonObject(messages.size() - 1).getString("tool_call_id")).isEqualTo(call.getString("id"));
    }
    ChatMessage stored = turn.answer();
    assertThat(stored.sql()).containsExactly(query);
    assertThat(stored.resultIds()).containsExactly(result.id());
  }

  @Test
  @DisplayName("TOOL-2: load_dataset goes to dataset.add with the URL; Gemini hears the new table's name, rows "
      + "and columns")
  void tool2() throws Exception {
    String url = "https://data.example.com/cities.parquet";
    JsonArray schema = new JsonArray().add(column("city", "VARCHAR", "Text"));
    turn.datasets.load(url, "table2", 1, schema).await();
    turn.model.next().call("load_dataset", new JsonObject().put("url", url)).usage(30, 5);
    turn.model.next().answer("Loaded table2.");

    turn.asked("Load " + url);

    assertThat(EventLog.types(turn.events.untilTurnEnds())).containsSubsequence("tool_call_start", "chat_complete");
    JsonObject response = turn.request(1).functionResponses().get(0).getJsonObject("response");
    assertThat(response.getString("status")).isEqualTo("loaded");
    assertThat(response.getString("table")).isEqualTo("table2");
    assertThat(response.getLong("row_count")).isEqualTo(1);
    assertThat(response.getJsonArray("columns")).isEqualTo(schema);
  }

  @Test
  @DisplayName("a load_dataset the pipeline refuses goes back to Gemini with the seed's message and a hint to "
      + "suggest the datasets panel")
  void loadRefused() throws Exception {
    String url = "https://data.example.com/missing.parquet";
    turn.datasets.refuse(url, new QuarryException(Failure.BAD_REQUEST, "Could not access URL", "HTTP 404")).await();
    turn.model.next().call("load_dataset", new JsonObject().put("url", url)).usage(30, 5);
    turn.model.next().answer("I could not load it; add it in the datasets panel.");

    turn.asked("Load " + url);
    turn.events.untilTurnEnds();

    JsonObject response = lastResponse(turn.request(1));
    assertThat(response.getString("error")).isEqualTo("Could not access URL");
    assertThat(response.getString("details")).isEqualTo("HTTP 404");
    assertThat(response.getString("hint")).contains("datasets panel");
  }

  @Test
  @DisplayName("describe_columns finds the table by name, asks dataset.profile for it (with the column asked) and gives"
      + " the model the profile, distinct said to be an estimate; an unknown table names the conversation's")
  void describeColumns() throws Exception {
    turn.datasets.profiles(request -> new Profile(100, List.of(new Profile.Column("age", "INTEGER", 2L, "20", "69", 50L,
        true)), request.column() == null ? null : new Profile.Top(request.column(), List.of(new Profile.Frequent(20, 3)),
        List.of(new Profile.Bin(30, 40))), null)).await();
    turn.model.next().call("describe_columns", new JsonObject().put("table", "TABLE1").put("column", "age"))
        .usage(10, 1);
    turn.model.next().call("describe_columns", new JsonObject().put("table", "nope")).usage(10, 1);
    turn.model.next().answer("Ages run from 20 to 69.");

    turn.asked("What ages are there?");
    turn.events.untilTurnEnds();

    JsonObject profile = lastResponse(turn.request(1));
    assertThat(profile.getString("table")).isEqualTo("table1");
    assertThat(profile.getLong("rows")).isEqualTo(100);
    JsonObject age = profile.getJsonArray("columns").getJsonObject(0);
    assertThat(age.getString("min")).isEqualTo("20");
    assertThat(age.getBoolean("distinct_estimated")).isTrue();
    assertThat(profile.getJsonObject("top").getJsonArray("values").getJsonObject(0).getLong("count")).isEqualTo(3);
    assertThat(profile.getString("hint")).contains("estimate");
    assertThat(lastResponse(turn.request(2)).getString("error")).isEqualTo("No table 'nope' in this conversation; its"
        + " tables are: table1");
  }

  @Test
  @DisplayName("TOOL-3: several execute_sql calls run in order and the answer uses all results")
  void tool3() throws Exception {
    String first = "SELECT DISTINCT active FROM table1 ORDER BY 1";
    String second = "SELECT active, count(*) FROM table1 GROUP BY 1 ORDER BY 1";
    turn.answers(first, List.of("active BOOLEAN"), row(false).add(new JsonArray().add(true)));
    turn.answers(second, List.of("active BOOLEAN", "count BIGINT"), row(false, 50).add(new JsonArray().add(true)
        .add(50)));
    turn.model.next().call("execute_sql", sql(first)).usage(10, 1);
    turn.model.next().call("execute_sql", sql(second)).usage(20, 1);
    turn.model.next().answer("Half and half.");

    turn.asked("Split by active?");

    List<JsonObject> events = turn.events.untilTurnEnds();
    assertThat(EventLog.ofType(events, "query_result")).extracting(e -> e.getString("sql"))
        .containsExactly(first, second);
    assertThat(turn.request(2).functionResponses()).hasSize(2);
    assertThat(EventLog.tokens(events)).isEqualTo("Half and half.");
  }

  @Test
  @DisplayName("TOOL-4: after the fifth tool call no more run; Gemini is told to answer and tools are switched off")
  void tool4() throws Exception {
    for (int i = 1; i <= 6; i++) {
      turn.answers("SELECT " + i + " AS step", List.of("step INTEGER"), row(i));
      turn.model.next().call("execute_sql", sql("SELECT " + i + " AS step")).usage(10, 1);
    }
    turn.model.next().answer("Here is what I found.");

    turn.asked("Explore everything");

    List<JsonObject> events = turn.events.untilTurnEnds();
    assertThat(EventLog.ofType(events, "query_result")).hasSize(5);
    FakeModel.Request sixth = turn.request(5);
    assertThat(toolMode(sixth)).isEqualTo("NONE");
    assertThat(TurnHarness.lastTurn(sixth))
        .contains("maximum of 5 tool calls");
    assertThat(lastResponse(turn.request(6)).getString("error")).startsWith("Not executed");
    assertThat(EventLog.tokens(events)).isEqualTo("Here is what I found.");
  }

  @Test
  @DisplayName("ERR-CORRECT-1: a SQL error goes back to Gemini as the tool response, and the corrected query runs")
  void errCorrect1() throws Exception {
    turn.datasets.fail("SELEC count(*) FROM table1", new QuarryException(Failure.SQL,
        "SQL syntax error at or near 'SELEC'", "Parser Error: syntax error at or near \"SELEC\"")).await();
    turn.answers("SELECT count(*) AS n FROM table1", List.of("n BIGINT"), row(100));
    turn.model.next().call("execute_sql", sql("SELEC count(*) FROM table1")).usage(10, 1);
    turn.model.next().call("execute_sql", sql("SELECT count(*) AS n FROM table1")).usage(10, 1);
    turn.model.next().answer("100.");

    turn.asked("Count them");

    List<JsonObject> events = turn.events.untilTurnEnds();
    assertThat(EventLog.types(events)).containsSubsequence("query_error", "query_result", "chat_complete");
    assertThat(EventLog.ofType(events, "query_error").get(0).getString("error"))
        .isEqualTo("SQL syntax error at or near 'SELEC'");
    JsonObject error = turn.request(1).functionResponses().get(0).getJsonObject("response");
    assertThat(error.getString("error")).isEqualTo("SQL syntax error at or near 'SELEC'");
    assertThat(error.getString("error_type")).isEqualTo("sql");
    assertThat(lastResponse(turn.request(2)).containsKey("result_id")).isTrue();
  }

  @Test
  @DisplayName("ERR-CORRECT-2 and ERR-CORRECT-4: after three failures Gemini is told to explain, and its "
      + "explanation is the answer")
  void errCorrect2and4() throws Exception {
    turn.datasets.fail("SELECT salary FROM table1", new QuarryException(Failure.SQL,
        "Column 'salary' does not exist. Available columns: table1(name, age, active)")).await();
    for (int i = 0; i < 3; i++) {
      turn.model.next().call("execute_sql", sql("SELECT salary FROM table1")).usage(10, 1);
    }
    turn.model.next().answer("The table has no salary column.");

    turn.asked("Average salary?");

    List<JsonObject> events = turn.events.untilTurnEnds();
    assertThat(EventLog.ofType(events, "query_error")).hasSize(3);
    FakeModel.Request fourth = turn.request(3);
    assertThat(TurnHarness.lastTurn(fourth))
        .contains("The SQL has failed 3 times").contains("explain the error to the user");
    assertThat(toolMode(fourth)).isEqualTo("NONE");
    assertThat(turn.answer().content()).isEqualTo("The table has no salary column.");
  }

  @Test
  @DisplayName("EDGE-1: a Parquet URL in the message is loaded with load_dataset before the query and the answer")
  void edge1() throws Exception {
    String url = "https://data.example.com/sales.parquet";
    turn.datasets.load(url, "table2", 1, new JsonArray().add(column("amount", "DECIMAL(2,1)", "Decimal"))).await();
    turn.answers("SELECT sum(amount) AS total FROM table2", List.of("total DECIMAL(38,1)"), row(9.5));
    turn.model.next().call("load_dataset", new JsonObject().put("url", url)).usage(10, 1);
    turn.model.next().call("execute_sql", sql("SELECT sum(amount) AS total FROM table2")).usage(10, 1);
    turn.model.next().answer("Total 9.5.");

    turn.asked("What is the total in " + url + " ?");

    List<String> types = EventLog.types(turn.events.untilTurnEnds());
    assertThat(types.indexOf("tool_call_start")).isLessThan(types.indexOf("query_result"));
    assertThat(types.indexOf("query_result")).isLessThan(types.indexOf("chat_token"));
    assertThat(turn.datasets.requests().await()).extracting(r -> r.address())
        .containsExactly(DATASET_ADD, DATASET_QUERY_RUN);
  }

  @Test
  @DisplayName("a chart of the previous result needs no new SQL: the chart event carries the earlier result id")
  void chartOfPreviousResult() throws Exception {
    String query = "SELECT active, count(*) AS n FROM table1 GROUP BY 1 ORDER BY 1";
    String resultId = turn.answers(query, List.of("active BOOLEAN", "n BIGINT"),
        row(false, 50).add(new JsonArray().add(true).add(50))).id();
    turn.model.next().call("execute_sql", sql(query)).usage(10, 1);
    turn.model.next().answer("Half are active.");
    turn.asked("How many are active?");
    turn.events.untilTurnEnds();

    turn.model.next().call("render_chart", new JsonObject().put("result_id", resultId).put("chart_type", "pie")
        .put("x", "active").put("y", new JsonArray().add("n"))).usage(10, 1);
    turn.model.next().answer("Here is the pie chart.");
    turn.asked("show that as a pie chart");

    List<JsonObject> second = turn.events.untilTurnEnds();
    assertThat(EventLog.types(second)).doesNotContain("query_result");
    JsonObject chart = EventLog.ofType(second, "chart").get(0);
    assertThat(chart.getString("result_id")).isEqualTo(resultId);
    assertThat(chart.getJsonObject("spec").getString("chart_type")).isEqualTo("pie");
    // The second request's history told Gemini about the first result and its id.
    assertThat(TurnHarness.history(turn.request(2))).contains(resultId)
        .contains("Query executed successfully. Returned 2 rows with columns: [active, n]");
    assertThat(turn.datasets.queries().await()).containsExactly(query);
    assertThat(turn.answer().charts().getJsonObject(0).getString("result_id")).isEqualTo(resultId);
  }

  @Test
  @DisplayName("an invalid chart column goes back as a tool error naming the columns, and the corrected call renders")
  void invalidChartCorrected() throws Exception {
    String query = "SELECT age, count(*) AS n FROM table1 GROUP BY 1 ORDER BY 1";
    String resultId = turn.answers(query, List.of("age INTEGER", "n BIGINT"), row(30, 4)).id();
    turn.model.next().call("execute_sql", sql(query)).usage(10, 1);
    turn.model.next().answer("Done.");
    turn.asked("Ages?");
    turn.events.untilTurnEnds();
    turn.model.next().call("render_chart", new JsonObject().put("result_id", resultId).put("chart_type", "bar")
        .put("x", "years").put("y", new JsonArray().add("n"))).usage(10, 1);
    turn.model.next().call("render_chart", new JsonObject().put("result_id", resultId).put("chart_type", "bar")
        .put("x", "age").put("y", new JsonArray().add("n"))).usage(10, 1);
    turn.model.next().answer("Charted.");

    turn.asked("bar chart please");

    List<JsonObject> events = turn.events.untilTurnEnds();
    assertThat(lastResponse(turn.request(3)).getString("error"))
        .isEqualTo("Column 'years' (x) is not in result " + resultId + "; its columns are: age, n");
    assertThat(EventLog.ofType(events, "chart")).hasSize(1);
  }

  @Test
  @DisplayName("render_chart's response says what the chart shows, as the dataset verticle drew it from every row, and"
      + " hints at aggregate or SQL when the chart does not draw each row; the chart event and the answer carry the"
      + " rows drawn")
  void chartSaysWhatItShows() throws Exception {
    String query = "SELECT species, island, avg(body_mass_g) AS mass FROM table1 GROUP BY 1, 2";
    JsonArray rows = row("Adelie", "Biscoe", 3709.7).add(new JsonArray().add("Adelie").add("Dream").add(3688.4))
        .add(new JsonArray().add("Gentoo").add("Biscoe").add(5076.0));
    String resultId = turn.answers(query, List.of("species VARCHAR", "island VARCHAR", "mass DOUBLE"), rows).id();
    turn.model.next().call("execute_sql", sql(query)).usage(10, 1);
    turn.model.next().answer("Done.");
    turn.asked("Mass by species and island?");
    turn.events.untilTurnEnds();
    turn.datasets.charts(request -> request.spec().containsKey("series")
        ? new ChartData(request.spec(), new JsonArray(), rows, "all 3 rows, one mark each")
        : new ChartData(request.spec(), new JsonArray(), row("Adelie", 7398.1),
            "sum of 'mass' for each 'species': all 3 rows in 2 marks")).await();
    JsonObject bar = new JsonObject().put("result_id", resultId).put("chart_type", "bar").put("x", "species")
        .put("y", new JsonArray().add("mass"));
    turn.model.next().call("render_chart", bar).usage(10, 1);
    turn.model.next().call("render_chart", bar.copy().put("series", "island")).usage(10, 1);
    turn.model.next().answer("Charted.");

    turn.asked("bar chart by species");

    List<JsonObject> events = turn.events.untilTurnEnds();
    JsonObject first = lastResponse(turn.request(3));
    assertThat(first.getString("status")).isEqualTo("rendered");
    assertThat(first.getString("shows")).isEqualTo("sum of 'mass' for each 'species': all 3 rows in 2 marks");
    assertThat(first.getString("hint")).startsWith("The chart shows sum of 'mass' for each 'species': all 3 rows in 2"
        + " marks. Say so when you describe it. To chart other groups or another aggregate, set aggregate, or aggregate"
        + " in SQL");
    JsonObject second = lastResponse(turn.request(4));
    assertThat(second.getString("shows")).isEqualTo("all 3 rows, one mark each");
    assertThat(second.containsKey("hint")).isFalse();
    List<JsonObject> charts = EventLog.ofType(events, "chart");
    assertThat(charts.get(0).getJsonObject("data").getString("shows")).isEqualTo(first.getString("shows"));
    assertThat(turn.answer().charts().getJsonObject(1).getJsonObject("data").getJsonArray("rows")).isEqualTo(rows);
  }
}
