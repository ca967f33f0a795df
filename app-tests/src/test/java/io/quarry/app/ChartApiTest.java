package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.ApiOps;
import io.quarry.bus.Bus;
import io.quarry.bus.ChartSpec;
import io.quarry.bus.StorageOps;
import io.quarry.testing.ParquetFixtures;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.util.UUID;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /api/results/:rid/chart}: a chart computed from every row of a stored result, on a worker, against real
 * DuckDB — what it draws is checked against the same data asked in plain SQL, and every refusal says why.
 */
class ChartApiTest extends ChatTestBase {

  @Override
  boolean sharesNode() {
    return true;
  }

  /** 200,000 readings a minute apart, each with a sensor and a value that grows with time. */
  private static final String READINGS = "SELECT TIMESTAMP '2024-01-01' + to_minutes(i) AS at, 'sensor ' || (i % 4) AS"
      + " sensor, i % 1000 AS value, DATE '2020-01-01' + (i // 100)::INTEGER AS day FROM range(200000) t(i)";

  private HttpResponse<Buffer> chart(String resultId, JsonObject spec) {
    return chat.send(HttpMethod.POST, "/api/results/" + resultId + "/chart", spec);
  }

  private JsonObject drawn(String resultId, JsonObject spec) {
    HttpResponse<Buffer> response = chart(resultId, spec);
    assertThat(response.statusCode()).as(response.bodyAsString()).isEqualTo(200);
    return response.bodyAsJsonObject();
  }

  @Test
  @DisplayName("a line over 200,000 distinct timestamps is cut into 1,000 equal steps, each the sum of its readings,"
      + " and says so; the steps add up to the sum of every row")
  void timestampsInSteps() {
    String resultId = query(READINGS).getString("id");
    JsonObject line = drawn(resultId, new JsonObject().put("chart_type", "line").put("x", "at")
        .put("y", new JsonArray().add("value")));
    assertThat(line.getString("shows")).isEqualTo("sum of 'value' in 1,000 equal steps of 'at' (200,000 values): all"
        + " 200,000 rows");
    JsonArray rows = line.getJsonArray("rows");
    assertThat(rows.size()).isBetween(900, 1_000);
    long total = rows.stream().mapToLong(row -> ((JsonArray) row).getLong(1)).sum();
    long expected = query("SELECT sum(value) FROM (" + READINGS + ")").getJsonArray("rows").getJsonArray(0).getLong(0);
    assertThat(total).isEqualTo(expected);
    assertThat(rows.getJsonArray(0).getString(0)).startsWith("2024-01-01");
  }

  @Test
  @DisplayName("dates become whole-day steps, fewer when a series shares the chart's 1,000 marks; mean, max and count"
      + " aggregate as named")
  void datesSeriesAndAggregates() {
    String resultId = query(READINGS).getString("id");
    JsonObject days = drawn(resultId, new JsonObject().put("chart_type", "area").put("x", "day")
        .put("y", new JsonArray().add("value")).put("series", "sensor").put("aggregate", "max"));
    assertThat(days.getString("shows")).isEqualTo("max of 'value' by 'sensor' in 250 equal steps of 'day' (2,000"
        + " values): all 200,000 rows");
    JsonArray steps = days.getJsonArray("rows");
    assertThat(steps.size()).isEqualTo(1_000);
    assertThat(steps.getJsonArray(0)).as("the first 8 days hold readings 0 to 799")
        .isEqualTo(new JsonArray().add("2020-01-01").add("sensor 0").add(796));
    assertThat(steps.getJsonArray(4).getString(0)).as("8 days a step").isEqualTo("2020-01-09");
    JsonObject count = drawn(resultId, new JsonObject().put("chart_type", "pie").put("x", "sensor")
        .put("aggregate", "count"));
    assertThat(count.getJsonArray("rows")).containsExactly(new JsonArray().add("sensor 0").add(50_000),
        new JsonArray().add("sensor 1").add(50_000), new JsonArray().add("sensor 2").add(50_000),
        new JsonArray().add("sensor 3").add(50_000));
    JsonObject mean = drawn(resultId, new JsonObject().put("chart_type", "bar").put("x", "sensor")
        .put("y", new JsonArray().add("value")).put("aggregate", "mean"));
    assertThat(mean.getJsonArray("rows").getJsonArray(0).getDouble(1)).isEqualTo(query("SELECT avg(value) FROM ("
        + READINGS + ") WHERE sensor = 'sensor 0'").getJsonArray("rows").getJsonArray(0).getDouble(0));
  }

  @Test
  @DisplayName("a category x with more values than a chart holds draws the first 1,000 in the result's order and says"
      + " how many there are")
  void tooManyCategories() {
    String resultId = query("SELECT 'item ' || (5000 - i) AS item, i AS n FROM range(5000) t(i)").getString("id");
    JsonObject bars = drawn(resultId, new JsonObject().put("chart_type", "bar").put("x", "item")
        .put("y", new JsonArray().add("n")));
    assertThat(bars.getString("shows")).isEqualTo("sum of 'n' for the first 1,000 of 5,000 values of 'item', in the"
        + " result's order, of all 5,000 rows");
    assertThat(bars.getJsonArray("rows").getJsonArray(0)).isEqualTo(new JsonArray().add("item 5000").add(0));
  }

  @Test
  @DisplayName("a spec that does not fit its result is refused saying what to change; a result that is not the user's"
      + " is not found; a histogram of text is refused")
  void refusals() {
    String resultId = query("SELECT 'a' AS label, 1 AS n").getString("id");
    HttpResponse<Buffer> column = chart(resultId, new JsonObject().put("chart_type", "bar").put("x", "nope")
        .put("y", new JsonArray().add("n")));
    assertThat(column.statusCode()).isEqualTo(400);
    assertThat(column.bodyAsJsonObject().getString("error")).isEqualTo("Column 'nope' (x) is not in result " + resultId
        + "; its columns are: label, n");
    HttpResponse<Buffer> aggregate = chart(resultId, new JsonObject().put("chart_type", "bar").put("x", "label")
        .put("y", "n").put("aggregate", "median"));
    assertThat(aggregate.bodyAsJsonObject().getString("error")).isEqualTo("Unknown aggregate 'median'; use one of sum,"
        + " mean, count, min, max");
    HttpResponse<Buffer> histogram = chart(resultId, new JsonObject().put("chart_type", "histogram").put("x", "label"));
    assertThat(histogram.statusCode()).isEqualTo(400);
    assertThat(histogram.bodyAsJsonObject().getString("error")).isEqualTo("A histogram needs a numeric x; 'label' is"
        + " VARCHAR");
    assertThat(chart("no-such-result", new JsonObject().put("chart_type", "bar").put("x", "label").put("y", "n"))
        .statusCode()).isEqualTo(404);
  }

  @Test
  @DisplayName("another user's result is not found, the same as one that does not exist, and nothing of it is drawn")
  void othersResult() {
    Bus bus = new Bus(chat.node.vertx());
    String invite = StorageOps.INVITE_CREATE.call(bus, null).await().code();
    String other = StorageOps.USER_CREATE.call(bus, new StorageOps.NewUser("other-" + UUID.randomUUID()
        + "@example.com", "not-a-hash", invite)).await().id();
    String theirs = ApiOps.CONVERSATION_CREATE.call(bus, new ApiOps.CreateConversation(other, null, "Theirs")).await()
        .id();
    String resultId = ApiOps.QUERY_RUN.call(bus, new ApiOps.Query(other, theirs, "SELECT 'a' AS label, 1 AS n")).await()
        .id();

    HttpResponse<Buffer> refused = chart(resultId, new JsonObject().put("chart_type", "bar").put("x", "label")
        .put("y", "n"));

    assertThat(refused.statusCode()).isEqualTo(404);
    assertThat(refused.bodyAsString()).isEqualTo(chart("no-such-result", new JsonObject().put("chart_type", "bar")
        .put("x", "label").put("y", "n")).bodyAsString()).doesNotContain("label");
  }

  @Test
  @DisplayName("a chart whose result's SQL fails now (its dataset removed since) says so in the result's own terms,"
      + " naming none of the chart's helper columns")
  void resultFailsNow() {
    String datasetId = chat.addDataset(conversation, "/people.parquet").getString("id");
    String resultId = query("SELECT name, id FROM table1").getString("id");
    assertThat(chat.send(HttpMethod.DELETE, "/api/conversations/" + conversation + "/datasets/" + datasetId, null)
        .statusCode()).isEqualTo(204);

    HttpResponse<Buffer> refused = chart(resultId, new JsonObject().put("chart_type", "bar").put("x", "name")
        .put("y", "id"));

    assertThat(refused.statusCode()).isEqualTo(400);
    String error = refused.bodyAsJsonObject().getString("error");
    assertThat(error).startsWith("The chart could not be computed: ").contains("table1").doesNotContain("__quarry");
  }

  @Test
  @DisplayName("when the file changed since the result, the chart says so (409) instead of drawing other data")
  void dataChanged() throws Exception {
    chat.addDataset(conversation, "/people.parquet");
    String resultId = query("SELECT * FROM table1").getString("id");
    chat.files.route("/people.parquet").content(ParquetFixtures.write(dir.resolve("more.parquet"),
        "SELECT i AS id, 'person ' || i AS name FROM range(150) t(i)"));

    HttpResponse<Buffer> refused = chart(resultId, new JsonObject().put("chart_type", "bar").put("x", "name")
        .put("y", "id"));

    assertThat(refused.statusCode()).isEqualTo(409);
    assertThat(refused.bodyAsJsonObject().getString("error")).isEqualTo(ChartSpec.DATA_CHANGED);
  }
}
