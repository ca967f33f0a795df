package io.quarry.app;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;

import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/** What the browser tests of the UX review do over and over: open the app, add a file, ask, chart, run SQL. */
final class PageActions {

  static final String CARS_BY_ORIGIN = "SELECT origin, count(*) AS cars FROM table1 GROUP BY origin ORDER BY cars DESC";

  private final Page page;
  private final ChatHarness chat;
  private final String url;

  PageActions(Page page, ChatHarness chat, String url) {
    this.page = page;
    this.chat = chat;
    this.url = url;
  }

  /** Opens the app and waits until it is ready and connected. */
  void open() {
    page.navigate(url);
    ready();
  }

  void reload() {
    page.reload();
    ready();
  }

  private void ready() {
    assertThat(page.locator("body")).hasAttribute("data-ready", "true");
    assertThat(page.locator("#connection-text")).hasText("Connected");
  }

  /** Adds a file the test's Parquet server serves, through the URL box, and waits for its card to say it is ready. */
  void addDataset(String path, String readyCard) {
    page.locator("#dataset-url").fill(chat.files.url(path));
    page.locator("#dataset-url").press("Enter");
    assertThat(page.locator(".dataset-card .open", new Page.LocatorOptions().setHasText(readyCard))).isVisible();
  }

  void addCars() {
    page.getByText("Try sample data: Cars").click();
    assertThat(page.locator(".dataset-card .open")).hasText("table1 [406 × 9]");
  }

  void ask(String question) {
    page.locator("#input").fill(question);
    page.locator("#input").press("Enter");
  }

  /**
   * Waits until no answer is being written: true also in the moment after {@link #ask} before the question has left
   * the page, so a test that reads what the answer did waits for its text first.
   */
  void answered() {
    assertThat(page.locator(".message.assistant .content.cursor")).hasCount(0);
    assertThat(page.locator("#stop")).isHidden();
  }

  /** Runs SQL in the datasets panel's SQL runner (opening it if needed). */
  void runSql(String sql) {
    if (page.locator(".sql-runner[open]").count() == 0) {
      page.locator(".sql-runner summary").click();
    }
    page.locator("#sql-input").fill(sql);
    page.locator("#sql-run").click();
  }

  /** The id of the first result of the newest conversation's first answer, as storage keeps it. */
  String firstResultId() {
    String conversation = chat.send(HttpMethod.GET, "/api/conversations", null).bodyAsJsonObject()
        .getJsonArray("conversations").getJsonObject(0).getString("id");
    return chat.conversationJson(conversation).getJsonArray("messages").getJsonObject(1)
        .getJsonArray("result_ids").getString(0);
  }

  /** With the cars added: the model answers where the cars come from with a table of the three origins. */
  void askCarsByOrigin() {
    chat.gemini.next().call("execute_sql", new JsonObject().put("query", CARS_BY_ORIGIN)).usage(100, 10);
    chat.gemini.next().answer("Most cars come from USA.");
    ask("Where do the cars come from?");
    assertThat(page.locator(".result-table tbody tr")).hasCount(3);
    answered();
  }

  /** After {@link #askCarsByOrigin}: the model draws that result as a bar chart "Cars by origin". */
  void askChartOfCarsByOrigin() {
    chat.gemini.next().call("render_chart", new JsonObject().put("result_id", firstResultId()).put("chart_type", "bar")
        .put("x", "origin").put("y", new JsonArray().add("cars")).put("title", "Cars by origin")).usage(100, 5);
    chat.gemini.next().answer("Here is the chart.");
    ask("Chart it");
    assertThat(page.locator(".chart svg .mark-rect path")).hasCount(3);
  }

  /** The blocks of the SQL runner's stored runs, oldest first. */
  Locator runnerRuns() {
    return page.locator(".message.run .artifact.run.runner");
  }
}
