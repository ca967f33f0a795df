package io.quarry.app;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;

import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;

/** What the browser tests of the UX review do over and over: open the app, add a file, ask, run SQL. */
final class PageActions {

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

  /** Waits until no answer is being written. */
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

  /** The blocks of the SQL runner's stored runs, oldest first. */
  Locator runnerRuns() {
    return page.locator(".message.run .artifact.run.runner");
  }
}
