package io.quarry.app;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The web UI in real headless Chromium against the real app and the fake Gemini. */
class BrowserTest extends BrowserTestBase {

  @Override
  boolean sharesNode() {
    return true;
  }

  /** target/ by default; -Dquarry.screenshots=../docs/screenshots refreshes the README's pictures. */
  static final Path SCREENSHOTS = Path.of(System.getProperty("quarry.screenshots", "target/screenshots"));


  /** Whether every test runs, or only the chat test (the other provider's run: {@link OpenAiBrowserTest}). */
  boolean allTests() {
    return true;
  }

  @BeforeEach
  void open(org.junit.jupiter.api.TestInfo info) {
    org.junit.jupiter.api.Assumptions.assumeTrue(allTests()
        || info.getTestMethod().map(m -> m.getName().equals("askWithChart")).orElse(false), "the chat test only");
    page.onDialog(dialog -> dialog.accept(dialog.type().equals("prompt") ? "Renamed by test" : null));
    page.navigate(url());
    assertThat(page.locator("body")).hasAttribute("data-ready", "true");
    assertThat(page.locator("#connection-text")).hasText("Connected");
  }


  private void screenshot(String name) throws Exception {
    Files.createDirectories(SCREENSHOTS);
    page.screenshot(new Page.ScreenshotOptions().setPath(SCREENSHOTS.resolve(name + ".png")));
  }

  private void addSample() {
    page.getByText("Try sample data: Cars").click();
    assertThat(page.locator(".dataset-card .open")).hasText("table1 [406 × 9]");
  }

  private void ask(String question) {
    page.locator("#input").fill(question);
    page.locator("#input").press("Enter");
  }

  @Test
  @DisplayName("a sample dataset gets its card; a question streams tokens, then the SQL panel, a table and an SVG chart; a reload shows it all again")
  void askWithChart() throws Exception {
    screenshot("01-empty-conversation");
    addSample();
    chat.model().next().call("execute_sql", new JsonObject().put("query",
        "SELECT origin, count(*) AS cars FROM table1 GROUP BY origin ORDER BY cars DESC")).usage(100, 10);
    chat.model().next().text("Most cars ").gate("rest").text("come from **USA**.").usage(200, 10);
    ask("Where do the cars come from?");
    assertThat(page.locator(".message.assistant .content")).containsText("Most cars");
    assertThat(page.locator(".message.assistant .content.cursor")).hasCount(1);
    screenshot("02-streaming");
    chat.model().release("rest");
    assertThat(page.locator(".message.assistant .content strong")).hasText("USA");
    assertThat(page.locator(".message.assistant .content.cursor")).hasCount(0);
    assertThat(page.locator(".result-table tbody tr")).hasCount(3);
    assertThat(page.locator(".row-count")).containsText("3 rows");

    String resultId = chat.conversationJson(firstConversation()).getJsonArray("messages").getJsonObject(1)
        .getJsonArray("result_ids").getString(0);
    chat.model().next().call("render_chart", new JsonObject().put("result_id", resultId).put("chart_type", "bar")
        .put("x", "origin").put("y", new io.vertx.core.json.JsonArray().add("cars")).put("title", "Cars by origin"))
        .usage(100, 5);
    chat.model().next().answer("Here is the chart.");
    ask("show that as a bar chart");
    assertThat(page.locator(".chart svg")).hasCount(1);
    page.locator(".sql-panel summary").first().click();
    assertThat(page.locator(".sql-panel textarea").first()).hasValue(
        "SELECT origin, count(*) AS cars FROM table1 GROUP BY origin ORDER BY cars DESC");
    assertThat(page.locator(".message.assistant .content.cursor")).hasCount(0);
    screenshot("03-answer-with-table-and-chart");

    page.reload();
    assertThat(page.locator(".message.assistant")).hasCount(2);
    assertThat(page.locator(".chart svg")).hasCount(1);
    assertThat(page.locator(".result-table").first()).isVisible();
    assertThat(page.locator(".message.assistant .content strong")).hasText("USA");
  }

  private String firstConversation() {
    return chat.send(io.vertx.core.http.HttpMethod.GET, "/api/conversations", null).bodyAsJsonObject()
        .getJsonArray("conversations").getJsonObject(0).getString("id");
  }

  @Test
  @DisplayName("an answer's SQL can be edited and re-run, as a new result under the answer")
  void editAndRerun() {
    addSample();
    chat.gemini.next().call("execute_sql", new JsonObject().put("query", "SELECT count(*) AS n FROM table1")).usage(10, 1);
    chat.gemini.next().answer("406 cars.");
    ask("How many cars?");
    assertThat(page.locator(".result-table td").first()).hasText("406");
    page.locator(".sql-panel summary").first().click();
    page.locator(".sql-panel textarea").first().fill("SELECT count(*) AS n FROM table1 WHERE cylinders = 4");
    page.locator(".sql-panel button").first().click();
    assertThat(page.locator(".artifact.run.edited .result-table td").first()).hasText("207");
    assertThat(page.locator(".result-table td").first()).hasText("406");
  }

  @Test
  @DisplayName("stop ends a streaming answer and keeps its partial text")
  void stopMidStream() {
    chat.gemini.next().text("Counting the rows one by one").stall();
    ask("Count slowly");
    assertThat(page.locator(".message.assistant .content")).containsText("Counting the rows");
    assertThat(page.locator("#stop")).isVisible();
    page.locator("#stop").click();
    assertThat(page.locator("#stop")).isHidden();
    assertThat(page.locator(".status-note")).hasText("Stopped.");
    page.reload();
    assertThat(page.locator(".message.assistant .content")).containsText("Counting the rows one by one");
  }

  @Test
  @DisplayName("a malformed URL and an unreachable one show the seed's messages on error cards, once each")
  void badUrls() throws Exception {
    page.locator("#dataset-url").fill("not a url");
    page.locator("#dataset-url").press("Enter");
    assertThat(page.locator(".dataset-card.error .message-text").first()).hasText("Invalid URL format");
    assertThat(page.getByText("Invalid URL format")).hasCount(1);
    chat.files.route("/missing.parquet").status(404);
    page.locator("#dataset-url").fill(chat.files.url("/missing.parquet"));
    page.locator("#dataset-url").press("Enter");
    Locator card = page.locator(".dataset-card.error", new Page.LocatorOptions().setHasText("missing.parquet"));
    assertThat(card.locator(".message-text")).hasText("Could not access URL");
    assertThat(page.getByText("Could not access URL")).hasCount(1);
    assertThat(card.getByText("Retry")).isVisible();
    screenshot("04-dataset-error");
  }

  @Test
  @DisplayName("renaming in the schema modal changes the name the next answer is given")
  void renameInSchemaModal() throws Exception {
    addSample();
    page.locator(".dataset-card .open").click();
    assertThat(page.locator("#schema-columns tr")).hasCount(9);
    assertThat(page.locator("#schema-columns")).containsText("Decimal");
    screenshot("05-schema-modal");
    page.locator("#schema-name").fill("cars");
    page.locator("#schema-rename").click();
    assertThat(page.locator("#schema-title")).hasText("cars");
    // By role: the one Close the person sees (the closed API tokens dialog holds another, hidden).
    page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Close").setExact(true)).click();
    assertThat(page.locator(".dataset-card .open")).hasText("cars [406 × 9]");
    chat.gemini.next().answer("Renamed.");
    ask("What tables are there?");
    assertThat(page.locator(".message.assistant .content")).hasText("Renamed.");
    assertThat(chat.gemini.requests().get(0).systemText()).contains("### cars (406 rows").doesNotContain("### table1");
  }

  @Test
  @DisplayName("conversations can be created, renamed and deleted")
  void conversations() {
    assertThat(page.locator("#conversation-list li")).hasCount(1);
    // An empty conversation is reused (PageLayoutBrowserTest): this one gets a question first.
    chat.gemini.next().answer("Hello.");
    ask("Hi");
    assertThat(page.locator(".message.assistant .content")).hasText("Hello.");
    assertThat(page.locator(".message.assistant .content.cursor")).hasCount(0);
    page.locator("#new-conversation").click();
    assertThat(page.locator("#conversation-list li")).hasCount(2);
    page.locator("#conversation-list li").first().getByLabel("Rename New conversation").click();
    page.getByRole(AriaRole.DIALOG).getByLabel("Title").fill("Renamed by test");
    page.getByRole(AriaRole.DIALOG).getByLabel("Title").press("Enter");
    assertThat(page.locator("#conversation-list li").first()).containsText("Renamed by test");
    assertThat(page.locator("#conversation-title")).hasText("Renamed by test");
    page.locator("#conversation-list li").first().getByLabel("Delete Renamed by test").click();
    page.getByRole(AriaRole.DIALOG).getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Delete")).click();
    assertThat(page.locator("#conversation-list li")).hasCount(1);
  }

  @Test
  @DisplayName("dark mode is applied and remembered across reloads")
  void darkMode() throws Exception {
    page.locator("#theme").selectOption("dark");
    assertThat(page.locator("html")).hasAttribute("data-theme", "dark");
    page.reload();
    assertThat(page.locator("html")).hasAttribute("data-theme", "dark");
    assertThat(page.locator("#theme")).hasValue("dark");
    screenshot("06-dark-mode");
  }
}
