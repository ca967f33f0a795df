package io.quarry.app;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.Locator;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A chart never hides a row (issue 36, part 1): when x repeats in the rows, a second categorical column colours and
 * groups the bars, or y is summed for each x and the subtitle says so; dates spanning years name the year on each tick.
 */
class ChartRowsBrowserTest extends BrowserTestBase {

  @Override
  boolean sharesNode() {
    return true;
  }

  /** Origin × cylinders: 9 rows, 3 origins, so each origin repeats. */
  static final String BY_ORIGIN_AND_CYLINDERS = "SELECT origin, CAST(cylinders AS VARCHAR) AS cyl, round(avg(horsepower))"
      + " AS hp FROM table1 GROUP BY 1, 2 ORDER BY 1, 2";
  static final String COUNT_BY_ORIGIN_AND_CYLINDERS = "SELECT origin, cylinders, count(*) AS cars FROM table1"
      + " GROUP BY 1, 2 ORDER BY 1, 2";
  static final String BY_MONTH = "SELECT make_date(year(year), cylinders, 1) AS month, count(*) AS cars FROM table1"
      + " WHERE year(year) IN (1970, 1971) GROUP BY 1 ORDER BY 1";

  PageActions ui;

  @BeforeEach
  void open() {
    ui = new PageActions(page, chat, url());
    ui.open();
    ui.addCars();
  }

  /** Asks a question the model answers by running this SQL; returns how many rows its table shows. */
  private int ask(String sql) {
    chat.gemini.next().call("execute_sql", new JsonObject().put("query", sql)).usage(100, 10);
    chat.gemini.next().answer("Here it is.");
    ui.ask("Show me");
    ui.answered();
    assertThat(page.locator(".result-table tbody tr").first()).isVisible();
    return page.locator(".result-table tbody tr").count();
  }

  private Locator bars() {
    return page.locator(".chart svg .mark-rect path");
  }

  /** Bars at distinct places across the axis: bars drawn over each other count once. */
  private int barPlaces() {
    return ((Number) page.evaluate("() => new Set([...document.querySelectorAll('.chart svg .mark-rect path')]"
        + ".map((p) => { const b = p.getBBox(); return `${Math.round(b.x)},${Math.round(b.width)}`; })).size")).intValue();
  }

  @Test
  @DisplayName("the model's bar chart with x = origin over 9 origin × cylinders rows draws 9 bars side by side, coloured"
      + " by cylinders, none over another")
  void repeatedXGetsColourAndGroups() {
    int rows = ask(BY_ORIGIN_AND_CYLINDERS);
    assertThat(rows).isGreaterThan(3);
    chat.gemini.next().call("render_chart", new JsonObject().put("result_id", ui.firstResultId()).put("chart_type", "bar")
        .put("x", "origin").put("y", new JsonArray().add("hp")).put("title", "Horsepower by origin")).usage(100, 5);
    chat.gemini.next().answer("Here is the chart.");
    ui.ask("Chart it by origin");
    assertThat(bars()).hasCount(rows);
    assertThat(barPlaces()).isEqualTo(rows);
    assertThat(page.locator(".chart svg .role-legend-title")).hasText("cyl");
  }

  @Test
  @DisplayName("'Chart this result' over rows whose x repeats with no categorical column to tell them apart draws one"
      + " bar per origin and says in its subtitle what it summed")
  void repeatedXWithoutCategorySums() {
    int rows = ask(COUNT_BY_ORIGIN_AND_CYLINDERS);
    Locator actions = page.locator(".chart-actions").first();
    actions.locator("summary").click();
    actions.getByLabel("X").selectOption("origin");
    actions.getByLabel("Y").selectOption("cars");
    actions.getByText("Draw").click();
    assertThat(page.locator(".chart svg .role-title-subtitle")).hasText("sum of cars for each origin: " + rows
        + " rows combined into 3");
    assertThat(bars()).hasCount(3);
    assertThat(barPlaces()).isEqualTo(3);
  }

  @Test
  @DisplayName("a line chart of months spanning 1970 and 1971 names the year on every tick of its time axis")
  void datesSpanningYearsShowTheYear() {
    ask(BY_MONTH);
    chat.gemini.next().call("render_chart", new JsonObject().put("result_id", ui.firstResultId()).put("chart_type", "line")
        .put("x", "month").put("y", new JsonArray().add("cars"))).usage(100, 5);
    chat.gemini.next().answer("Here is the chart.");
    ui.ask("Chart it over time");
    Locator labels = page.locator(".chart svg .role-axis-label text");
    assertThat(labels.first()).isVisible();
    // The y axis counts cars; the time axis's labels are the others.
    List<String> times = labels.allTextContents().stream().filter(label -> !label.matches("[\\d.,]+")).toList();
    assertThat(times).isNotEmpty().allMatch(label -> label.matches(".*\\b197[01]\\b.*"), "names its year");
  }
}
