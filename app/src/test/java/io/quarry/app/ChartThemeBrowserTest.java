package io.quarry.app;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Charts follow the page's theme (item 8): dark text on white no more in the dark theme, and a switch redraws them. */
class ChartThemeBrowserTest extends BrowserTestBase {

  static final String DARK_TEXT = "#e6e9ee";
  /** The dark theme's --bg, #15181d, as the SVG's style gives it. */
  static final String DARK_BACKGROUND = "rgb(21, 24, 29)";
  static final String LIGHT_TEXT = "#1b1f24";

  @Test
  @DisplayName("in the dark theme a chart's labels are light and its background dark; switching to light redraws it")
  void chartsFollowTheTheme() {
    PageActions ui = new PageActions(page, chat, url());
    ui.open();
    page.locator("#theme").selectOption("dark");
    ui.addCars();
    chat.gemini.next().call("execute_sql", new JsonObject().put("query",
        "SELECT origin, count(*) AS cars FROM table1 GROUP BY origin ORDER BY cars DESC")).usage(100, 10);
    chat.gemini.next().answer("Most cars come from USA.");
    ui.ask("Where do the cars come from?");
    assertThat(page.locator(".result-table tbody tr")).hasCount(3);
    ui.answered();

    String conversation = chat.send(HttpMethod.GET, "/api/conversations", null).bodyAsJsonObject()
        .getJsonArray("conversations").getJsonObject(0).getString("id");
    String resultId = chat.conversationJson(conversation).getJsonArray("messages").getJsonObject(1)
        .getJsonArray("result_ids").getString(0);
    chat.gemini.next().call("render_chart", new JsonObject().put("result_id", resultId).put("chart_type", "bar")
        .put("x", "origin").put("y", new JsonArray().add("cars")).put("title", "Cars by origin")).usage(100, 5);
    chat.gemini.next().answer("Here is the chart.");
    ui.ask("Chart it");
    assertThat(page.locator(".chart svg .mark-rect path")).hasCount(3);

    assertThat(labelFill()).isEqualToIgnoringCase(DARK_TEXT);
    assertThat(backgroundFill()).isEqualToIgnoringCase(DARK_BACKGROUND);

    page.locator("#theme").selectOption("light");
    assertThat(page.locator(".chart[data-drawn-theme=light] svg .mark-rect path")).hasCount(3);
    assertThat(labelFill()).isEqualToIgnoringCase(LIGHT_TEXT);
  }

  private String labelFill() {
    return (String) page.evaluate("document.querySelector('.chart svg .role-axis-label text').getAttribute('fill')");
  }

  /** Vega paints the background on the SVG element itself, or in a rect before the marks. */
  private String backgroundFill() {
    return (String) page.evaluate("(() => { const svg = document.querySelector('.chart svg');"
        + " const rect = svg.querySelector('rect.background');"
        + " return rect ? rect.getAttribute('fill') || rect.style.fill : svg.style.backgroundColor; })()");
  }
}
