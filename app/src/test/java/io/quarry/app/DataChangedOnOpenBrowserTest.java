package io.quarry.app;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;

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

    chat.files.route("/people.parquet").content(ParquetFixtures.write(dir.resolve("people120.parquet"),
        "SELECT i AS id, 'person ' || i AS name, 20 + i % 50 AS age, (i * 1.25)::DECIMAL(10,2) AS score,"
            + " DATE '2024-01-01' + i::INTEGER AS joined, i % 2 = 0 AS active FROM range(1, 121) t(i)"));
    ui.reload();

    assertThat(original.locator(".data-changed")).containsText("The data has changed since this result.");
    original.locator(".data-changed button", new Locator.LocatorOptions().setHasText("Re-run")).click();
    Locator rerun = page.locator(".message.assistant .artifact.run.edited");
    assertThat(rerun.locator(".result-table td").first()).hasText("120");
    assertThat(original.locator(".result-table td").first()).hasText("100");
  }
}
