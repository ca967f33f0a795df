package io.quarry.app;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.Download;
import com.microsoft.playwright.Locator;
import io.quarry.testing.FakeGemini;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A chart is of the whole result, and says what it is of (issue 49, item 1): the server computes it from every row —
 * bars aggregate by x, a histogram bins, a big scatter is a labelled sample — numbers and dates lie on continuous axes,
 * and the subtitle (in the page and in the saved image) and the model's tool response say what the chart shows.
 */
class ChartWholeResultBrowserTest extends BrowserTestBase {

  @Override
  boolean sharesNode() {
    return true;
  }

  /** 406 cars × 500: 203,000 rows, of which the browser holds the first 1,000. */
  static final String MANY = "SELECT origin, CAST(cylinders AS VARCHAR) AS cyl, horsepower, weight_lbs AS weight FROM table1,"
      + " range(500) t(i)";
  static final String BY_MONTH = "SELECT make_date(year(year), cylinders, 1) AS month, count(*) AS cars FROM table1"
      + " WHERE year(year) IN (1970, 1971) GROUP BY 1 ORDER BY 1";
  static final String BY_HORSEPOWER = "SELECT horsepower, count(*) AS cars FROM table1 WHERE horsepower IS NOT NULL"
      + " GROUP BY 1 ORDER BY cars DESC";

  PageActions ui;

  @BeforeEach
  void open() {
    ui = new PageActions(page, chat, url());
    ui.open();
    ui.addCars();
  }

  private void ask(String sql) {
    chat.gemini.next().call("execute_sql", new JsonObject().put("query", sql)).usage(100, 10);
    chat.gemini.next().answer("Here it is.");
    ui.ask("Show me");
    ui.answered();
    assertThat(page.locator(".result-table tbody tr").first()).isVisible();
  }

  private void modelCharts(JsonObject spec) {
    chat.gemini.next().call("render_chart", spec.put("result_id", ui.firstResultId())).usage(100, 5);
    chat.gemini.next().answer("Here is the chart.");
    ui.ask("Chart it");
    ui.answered();
  }

  /** What render_chart answered the model, in the newest request. */
  private JsonObject chartResponse() {
    List<FakeGemini.Request> requests = chat.gemini.requests();
    List<JsonObject> responses = requests.get(requests.size() - 1).functionResponses();
    return responses.get(responses.size() - 1).getJsonObject("response");
  }

  private Locator subtitle() {
    return page.locator(".chart svg .role-title-subtitle");
  }

  /** What the server says a query answers, to compare the chart with. */
  private JsonArray rowsOf(String sql) {
    String conversation = chat.send(HttpMethod.GET, "/api/conversations", null).bodyAsJsonObject()
        .getJsonArray("conversations").getJsonObject(0).getString("id");
    return chat.send(HttpMethod.POST, "/api/conversations/" + conversation + "/query", new JsonObject().put("sql", sql))
        .bodyAsJsonObject().getJsonArray("rows");
  }

  @Test
  @DisplayName("the model's bar chart of a 203,000-row result sums horsepower over all of them, per origin, and says so"
      + " in its subtitle, its saved SVG and its tool response, which hints at aggregate and SQL")
  void barOfEveryRow() throws Exception {
    ask(MANY);
    modelCharts(new JsonObject().put("chart_type", "bar").put("x", "origin").put("y", new JsonArray().add("horsepower"))
        .put("title", "Horsepower by origin"));
    String shows = "sum of 'horsepower' for each 'origin': all 203,000 rows in 3 marks";
    assertThat(subtitle()).hasText(shows);
    assertThat(page.locator(".chart svg .mark-rect path")).hasCount(3);
    JsonArray expected = rowsOf("SELECT origin, sum(horsepower) * 500 FROM table1 GROUP BY 1");
    for (Object row : expected) {
      JsonArray cells = (JsonArray) row;
      assertThat(page.locator(".chart svg .mark-rect path[aria-label*='" + cells.getString(0) + "']"))
          .hasAttribute("aria-label", "origin: " + cells.getString(0) + "; horsepower: " + cells.getLong(1));
    }
    JsonObject response = chartResponse();
    assertThat(response.getString("shows")).isEqualTo(shows);
    assertThat(response.getString("hint")).contains("aggregate in SQL (GROUP BY)");
    Locator artifact = page.locator(".artifact:has(.chart)");
    Download svg = page.waitForDownload(() -> artifact.locator(".chart-image-actions button",
        new Locator.LocatorOptions().setHasText("Download SVG")).click());
    assertThat(Files.readString(svg.path())).contains(shows);
  }

  @Test
  @DisplayName("a scatter of 203,000 points draws a uniform sample of 1,000 and is labelled so")
  void scatterSample() {
    ask(MANY);
    modelCharts(new JsonObject().put("chart_type", "scatter").put("x", "weight")
        .put("y", new JsonArray().add("horsepower")));
    long points = rowsOf("SELECT count(*) * 500 FROM table1 WHERE weight_lbs IS NOT NULL AND horsepower IS NOT NULL")
        .getJsonArray(0).getLong(0);
    assertThat(subtitle()).hasText("a uniform sample of 1,000 of " + String.format(java.util.Locale.ROOT, "%,d", points)
        + " points (" + String.format(java.util.Locale.ROOT, "%,d", 203_000 - points) + " rows lack x or y)");
    assertThat(page.locator(".chart svg .mark-symbol path")).hasCount(1_000);
  }

  @Test
  @DisplayName("'Chart this result' offers a histogram, which bins every row, and a heat map of x by series counting"
      + " rows, and a mean")
  void histogramHeatMapAndMean() {
    ask(MANY);
    page.locator(".chart-actions summary").first().click();
    Locator actions = page.locator(".chart-actions .chart-form").first();
    actions.getByLabel("Chart").selectOption("histogram");
    actions.getByLabel("X").selectOption("horsepower");
    actions.getByText("Draw").click();
    long missing = rowsOf("SELECT count(*) * 500 FROM table1 WHERE horsepower IS NULL").getJsonArray(0).getLong(0);
    assertThat(subtitle()).hasText("count of rows in 30 equal bins of 'horsepower': all 203,000 rows, "
        + String.format(java.util.Locale.ROOT, "%,d", missing) + " without a value");
    assertThat(page.locator(".chart svg .mark-rect path").count()).isBetween(20, 30);

    actions.getByLabel("Chart").selectOption("heatmap");
    actions.getByLabel("X").selectOption("origin");
    actions.getByLabel("Y").selectOption("");
    actions.getByLabel("Series").selectOption("cyl");
    actions.getByText("Draw").click();
    int cells = rowsOf("SELECT DISTINCT origin, cylinders FROM table1").size();
    assertThat(subtitle()).hasText("count of rows for each 'origin' and 'cyl': all 203,000 rows in " + cells + " cells");
    assertThat(page.locator(".chart svg .mark-rect.role-mark path")).hasCount(cells);

    actions.getByLabel("Chart").selectOption("bar");
    actions.getByLabel("Y").selectOption("weight");
    actions.getByLabel("Series").selectOption("");
    actions.getByLabel("Combine").selectOption("mean");
    actions.getByText("Draw").click();
    assertThat(subtitle()).hasText("mean of 'weight' for each 'origin': all 203,000 rows in 3 marks");
  }

  @Test
  @DisplayName("a bar chart of a numeric x stands on a continuous axis (a few round ticks, ascending), not one label a"
      + " value in the result's order")
  void numericXIsContinuous() {
    ask(BY_HORSEPOWER);
    int values = rowsOf("SELECT count(DISTINCT horsepower) FROM table1").getJsonArray(0).getInteger(0);
    modelCharts(new JsonObject().put("chart_type", "bar").put("x", "horsepower").put("y", new JsonArray().add("cars")));
    assertThat(subtitle()).hasText("all " + values + " rows, one mark each");
    List<Double> ticks = page.locator(".chart svg g[aria-label^='X-axis'] .role-axis-label text")
        .allTextContents().stream().map(label -> Double.parseDouble(label.replace(",", ""))).toList();
    assertThat(ticks.size()).isBetween(2, values / 3);
    assertThat(ticks).isSorted();
  }

  @Test
  @DisplayName("Vega loads with the page's first chart, not with the page; a chart whose library did not load says so,"
      + " and the next one loads it again and draws")
  void vegaLoadsWithTheFirstChart() {
    List<String> loaded = new java.util.concurrent.CopyOnWriteArrayList<>();
    page.onRequest(request -> {
      if (request.url().contains("vega")) {
        loaded.add(request.url().replaceFirst("^https?://[^/]+", ""));
      }
    });
    ask(BY_MONTH);
    assertThat(loaded).as("libraries loaded before any chart").isEmpty();
    assertThat(page.evaluate("typeof window.vegaEmbed")).isEqualTo("undefined");

    page.route("**/vega-lite.min.js", route -> route.abort());
    page.locator(".chart-actions summary").first().click();
    Locator actions = page.locator(".chart-actions .chart-form").first();
    actions.getByLabel("Chart").selectOption("bar");
    actions.getByLabel("X").selectOption("month");
    actions.getByText("Draw").click();
    assertThat(page.locator(".chart-actions")).containsText("Chart unavailable: The chart library did not load.");

    page.unroute("**/vega-lite.min.js");
    actions.getByText("Draw").click();
    assertThat(subtitle()).isVisible();
    assertThat(loaded).as("Vega's four scripts, the lot again after the failure").containsOnly(
        "/webjars/vega/5.32.0/vega.min.js", "/vendor/vega-interpreter-1.2.0/vega-interpreter.min.js",
        "/webjars/vega-lite/5.23.0/vega-lite.min.js", "/webjars/vega-embed/6.29.0/vega-embed.min.js");
  }

  @Test
  @DisplayName("a line chart of months spanning 1970 and 1971 names the year on every tick of its time axis")
  void datesSpanningYearsShowTheYear() {
    ask(BY_MONTH);
    modelCharts(new JsonObject().put("chart_type", "line").put("x", "month").put("y", new JsonArray().add("cars")));
    Locator labels = page.locator(".chart svg .role-axis-label text");
    assertThat(labels.first()).isVisible();
    // The y axis counts cars; the time axis's labels are the others.
    List<String> times = labels.allTextContents().stream().filter(label -> !label.matches("[\\d.,]+")).toList();
    assertThat(times).isNotEmpty().allMatch(label -> label.matches(".*\\b197[01]\\b.*"), "names its year");
  }
}
