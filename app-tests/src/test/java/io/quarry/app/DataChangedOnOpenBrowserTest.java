package io.quarry.app;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.Locator;
import io.quarry.testing.ParquetFixtures;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A conversation opened after its file changed says so on its results at once, with no query run and no Refresh:
 * opening it asks the file's server (each time here: {@code dataset.versionCheckIntervalMs} 0).
 */
class DataChangedOnOpenBrowserTest extends BrowserTestBase {

  @Override
  boolean sharesNode() {
    return true;
  }

  /** people.parquet with 120 people instead of 100, the same six columns. */
  private static final String PEOPLE_120 = "SELECT i AS id, 'person ' || i AS name, 20 + i % 50 AS age,"
      + " (i * 1.25)::DECIMAL(10,2) AS score, DATE '2024-01-01' + i::INTEGER AS joined, i % 2 = 0 AS active"
      + " FROM range(1, 121) t(i)";

  @Override
  Map<String, String> env() {
    return Map.of("QUARRY_DATASET_VERSION_CHECK_INTERVAL_MS", "0");
  }

  @Test
  @DisplayName("reopened after its file changed, a conversation's result says 'The data has changed since this result'"
      + " and Re-run shows the new result after it")
  void reopenedAfterTheFileChanged() {
    PageActions ui = new PageActions(page, chat, url());
    ui.open();
    ui.addDataset("/people.parquet", "table1 [100 × 6]");
    chat.gemini.next().call("execute_sql", new JsonObject().put("query", "SELECT count(*) AS people FROM table1"))
        .usage(100, 10);
    chat.gemini.next().answer("There are 100 people.");
    ui.ask("How many people?");
    ui.answered();
    Locator original = page.locator(".message.assistant .artifact").first();
    assertThat(original.locator(".result-table td").first()).hasText("100");
    assertThat(page.locator(".data-changed")).hasCount(0);

    chat.files.route("/people.parquet").content(ParquetFixtures.write(dir.resolve("people120.parquet"), PEOPLE_120));
    ui.reload();

    assertThat(original.locator(".data-changed")).containsText("The data has changed since this result.");
    original.locator(".data-changed button", new Locator.LocatorOptions().setHasText("Re-run")).click();
    Locator rerun = page.locator(".message.assistant .artifact.run.edited");
    assertThat(rerun.locator(".result-table td").first()).hasText("120");
    assertThat(original.locator(".result-table td").first()).hasText("100");
  }

  @Test
  @DisplayName("reopened after its file grew from 100 to 120 rows, the card says 'table1 [120 × 6]' and '120 rows, was"
      + " 100', the schema modal '120 rows · 6 columns' with the new size, and the model's next prompt 120 rows,"
      + " with no Refresh")
  void cardFollowsTheData() {
    PageActions ui = new PageActions(page, chat, url());
    ui.open();
    ui.addDataset("/people.parquet", "table1 [100 × 6]");
    byte[] grown = ParquetFixtures.write(dir.resolve("people120.parquet"), PEOPLE_120);
    chat.files.route("/people.parquet").content(grown);
    ui.reload();

    Locator card = page.locator(".dataset-card");
    assertThat(card.locator(".open")).hasText("table1 [120 × 6]");
    assertThat(card.locator(".dataset-change")).hasText("120 rows, was 100");
    card.locator(".open").click();
    String size = (String) page.evaluate("n => import('/js/schema-columns.js').then(m => m.humanSize(n))", grown.length);
    assertThat(page.locator("#schema-stats")).hasText("Parquet · 120 rows · 6 columns · " + size);
    page.locator("#schema-close").click();
    // The dialog gives the focus back to the card it was opened from as it closes: typed into before that, the chat
    // box lost the focus to the card, and the Enter that should have sent the question opened the dialog again.
    assertThat(card.locator(".open")).isFocused();

    chat.gemini.next().answer("There are 120 people.");
    ui.ask("How many people?");
    assertThat(page.locator(".message.assistant").last()).containsText("There are 120 people.");
    ui.answered();
    assertThat(chat.gemini.requests().get(chat.gemini.requests().size() - 1).systemText())
        .contains("table1 (120 rows");
  }
}
