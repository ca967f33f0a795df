package io.quarry.app;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;

import com.microsoft.playwright.Locator;
import io.quarry.testing.ParquetFixtures;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Results that know their data's version (issue 20, part 3, in the browser): once the file a result read has changed
 * (a later query or a refresh saw its new version), the result says "The data has changed since this result" with
 * Re-run, which shows the same SQL's new result after the old one, which stays; a reload says the same.
 */
class DataChangedBrowserTest extends BrowserTestBase {

  @Override
  boolean sharesNode() {
    return true;
  }

  static final String COUNT = "SELECT count(*) AS people FROM table1";
  static final String NOTICE = "The data has changed since this result.";

  PageActions ui;

  @BeforeEach
  void open() {
    ui = new PageActions(page, chat, url());
    ui.open();
    ui.addDataset("/people.parquet", "table1 [100 × 6]");
    chat.gemini.next().call("execute_sql", new JsonObject().put("query", COUNT)).usage(100, 10);
    chat.gemini.next().answer("There are 100 people.");
    ui.ask("How many people?");
    ui.answered();
    assertThat(original().locator(".result-table td").first()).hasText("100");
    assertThat(page.locator(".data-changed")).hasCount(0);
  }

  private Locator original() {
    return page.locator(".message.assistant .artifact").first();
  }

  private Locator rerun() {
    return page.locator(".message.assistant .artifact.run.edited");
  }

  /** The served file becomes another one, with another ETag: 120 people. */
  private void fileChanges() {
    chat.files.route("/people.parquet").content(ParquetFixtures.write(dir.resolve("people120.parquet"),
        "SELECT i AS id, 'person ' || i AS name, 20 + i % 50 AS age, (i * 1.25)::DECIMAL(10,2) AS score,"
            + " DATE '2024-01-01' + i::INTEGER AS joined, i % 2 = 0 AS active FROM range(1, 121) t(i)"));
  }

  private void rerunShowsBoth() {
    assertThat(original().locator(".data-changed")).containsText(NOTICE);
    original().locator(".data-changed button", new Locator.LocatorOptions().setHasText("Re-run")).click();
    assertThat(rerun().locator(".result-table td").first()).hasText("120");
    assertThat(rerun().locator(".sql-panel textarea")).hasValue(COUNT);
    assertThat(rerun().locator(".data-changed")).hasCount(0);
    assertThat(original().locator(".result-table td").first()).hasText("100");
    assertThat(original().locator(".data-changed")).containsText(NOTICE);
    // The new result stands after the old one.
    assertThat(page.locator(".message.assistant .artifact .result-table td:first-child"))
        .hasText(new String[] {"100", "120"});
  }

  @Test
  @DisplayName("a query that reads the file's new version makes the earlier result say the data has changed; Re-run "
      + "shows the new result after the old, which stays; a reload says the same")
  void laterQuerySeesNewVersion() {
    fileChanges();
    ui.runSql(COUNT);
    assertThat(ui.runnerRuns().first().locator(".result-table td").first()).hasText("120");
    assertThat(ui.runnerRuns().first().locator(".data-changed")).hasCount(0);
    rerunShowsBoth();

    ui.reload();
    assertThat(original().locator(".data-changed")).containsText(NOTICE);
    assertThat(original().locator(".result-table td").first()).hasText("100");
    assertThat(rerun().locator(".result-table td").first()).hasText("120");
    assertThat(page.locator(".data-changed")).hasCount(1);
  }

  @Test
  @DisplayName("a dataset's Refresh that finds a new version makes the earlier result say the data has changed, and "
      + "Re-run shows the new result after it")
  void refreshSeesNewVersion() {
    page.locator(".dataset-card .open").click();
    // Opening the modal profiles the file and shows its first rows, queries that would meet a new version first: the
    // file changes once they are done, so that Refresh is what finds it.
    assertThat(page.locator("#schema-first-rows tr")).hasCount(10);
    assertThat(page.locator("#schema-profile-status")).not().hasText("Profiling columns…");
    fileChanges();
    page.locator("#schema-refresh").click();
    assertThat(page.locator("#schema-status")).containsText("rows 100 → 120");
    page.locator("#schema-close").click();
    rerunShowsBoth();
  }
}
