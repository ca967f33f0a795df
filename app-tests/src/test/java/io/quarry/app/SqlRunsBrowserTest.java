package io.quarry.app;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;

import com.microsoft.playwright.Locator;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The user's own SQL never silently replaces what was there: an answer's SQL edited and run again is a new stored
 * result under the answer, marked "Edited SQL", with its own chart (item 3); the SQL runner belongs to its
 * conversation and its runs are stored results that show their SQL (item 4).
 */
class SqlRunsBrowserTest extends BrowserTestBase {

  @Override
  boolean sharesNode() {
    return true;
  }

  static final String BY_ORIGIN = "SELECT origin, count(*) AS cars FROM table1 GROUP BY origin ORDER BY cars DESC";
  static final String FOUR_CYLINDERS = "SELECT origin, count(*) AS cars FROM table1 WHERE cylinders = 4"
      + " GROUP BY origin ORDER BY cars DESC";

  PageActions ui;

  @BeforeEach
  void open() {
    ui = new PageActions(page, chat, url());
    ui.open();
    ui.addCars();
  }

  private Locator answer() {
    return page.locator(".message.assistant").first();
  }

  private Locator original() {
    return answer().locator(".artifact").first();
  }

  private Locator edited() {
    return answer().locator(".artifact.run.edited");
  }

  private void editAndRun(Locator block, String sql) {
    Locator panel = block.locator(".sql-panel");
    if (panel.getAttribute("open") == null) {
      panel.locator("summary").click();
    }
    panel.locator("textarea").fill(sql);
    panel.locator("button").click();
  }

  @Test
  @DisplayName("an edited re-run is a new 'Edited SQL' result under the answer with its own SQL, table and chart; the "
      + "answer's table stays; a failed re-run says so apart; a reload shows the same")
  void editedRerunIsANewStoredResult() {
    chat.gemini.next().call("execute_sql", new JsonObject().put("query", BY_ORIGIN)).usage(100, 10);
    chat.gemini.next().answer("Most cars come from USA.");
    ui.ask("Where do the cars come from?");
    assertThat(original().locator(".result-table tbody tr").first()).containsText("254");
    ui.answered();

    editAndRun(original(), FOUR_CYLINDERS);
    assertThat(edited()).hasCount(1);
    assertThat(edited().locator(".run-label")).hasText("Edited SQL");
    assertThat(edited().locator(".sql-panel textarea")).hasValue(FOUR_CYLINDERS);
    assertThat(edited().locator(".result-table tbody tr").first()).containsText("72");
    assertThat(original().locator(".result-table tbody tr").first()).containsText("254");
    assertThat(original().locator(".sql-panel textarea")).hasValue(BY_ORIGIN);
    assertThat(answer().locator(".content")).hasText("Most cars come from USA.");

    edited().locator(".chart-actions summary").click();
    edited().locator(".chart-actions button", new Locator.LocatorOptions().setHasText("Draw")).click();
    assertThat(edited().locator(".chart svg .mark-rect path")).hasCount(3);

    editAndRun(original(), "SELECT no_such_column FROM table1");
    Locator failed = answer().locator(".artifact.run.edited").last();
    assertThat(failed.locator(".run-label")).hasText("Edited SQL: not run");
    assertThat(failed.locator("[role=alert]")).containsText("no_such_column");
    assertThat(original().locator(".field-error")).hasCount(0);
    assertThat(original().locator(".result-table tbody tr").first()).containsText("254");

    ui.reload();
    assertThat(edited()).hasCount(1);
    assertThat(edited().locator(".run-label")).hasText("Edited SQL");
    assertThat(edited().locator(".sql-panel textarea")).hasValue(FOUR_CYLINDERS);
    assertThat(edited().locator(".result-table tbody tr").first()).containsText("72");
    assertThat(original().locator(".result-table tbody tr").first()).containsText("254");

    // After the reload the answer's SQL edited again is an edit of that answer too, under it.
    editAndRun(original(), BY_ORIGIN + " LIMIT 1");
    assertThat(edited()).hasCount(2);
    assertThat(edited().last().locator(".run-label")).hasText("Edited SQL");
    assertThat(edited().last().locator(".result-table tbody tr")).hasCount(1);
    assertThat(page.locator(".artifact.run.runner")).hasCount(0);
  }

  @Test
  @DisplayName("the SQL runner keeps each conversation's own query; its runs are stored results that show their SQL, "
      + "in their conversation only, after a reload too")
  void sqlRunnerBelongsToItsConversation() {
    String count = "SELECT count(*) AS n FROM table1";
    ui.runSql(count);
    assertThat(ui.runnerRuns()).hasCount(1);
    assertThat(ui.runnerRuns().locator(".run-label")).hasText("SQL run");
    assertThat(ui.runnerRuns().locator(".sql-panel textarea")).hasValue(count);
    assertThat(ui.runnerRuns().locator(".result-table td").first()).hasText("406");

    page.locator("#new-conversation").click();
    assertThat(page.locator("#conversation-list li")).hasCount(2);
    assertThat(page.locator("#sql-input")).hasValue("");
    assertThat(ui.runnerRuns()).hasCount(0);

    page.locator("#conversation-list li").nth(1).locator(".select").click();
    assertThat(page.locator("#sql-input")).hasValue(count);
    assertThat(ui.runnerRuns()).hasCount(1);

    ui.runSql("SELECT no_such_column FROM table1");
    assertThat(page.locator(".artifact.run.runner .run-label").last()).hasText("SQL run: not run");
    ui.reload();
    // A reload keeps the conversation that was open (its address): its run is there again; the other has none.
    assertThat(ui.runnerRuns()).hasCount(1);
    assertThat(ui.runnerRuns().locator(".sql-panel textarea")).hasValue(count);
    assertThat(ui.runnerRuns().locator(".result-table td").first()).hasText("406");
    page.locator("#conversation-list li").nth(0).locator(".select").click();
    assertThat(ui.runnerRuns()).hasCount(0);
  }
}
