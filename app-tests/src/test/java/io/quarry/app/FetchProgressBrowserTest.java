package io.quarry.app;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;

import com.microsoft.playwright.Locator;
import io.quarry.testing.ParquetFixtures;
import io.quarry.testing.ParquetServer;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A big file's first query is no silent wait: while its data downloads, the streaming answer and the SQL runner
 * say how far it has come (the server sends the first 256 KB of the column's chunks, then holds the rest until the
 * test lets it go).
 */
class FetchProgressBrowserTest extends BrowserTestBase {

  @Override
  boolean sharesNode() {
    return true;
  }

  static final int SENT = 256 * 1024;

  @Override
  Map<String, String> env() {
    return Map.of("QUARRY_WORKER_PROGRESS_INTERVAL_MS", "100");
  }

  /** A 100,000-row file whose column fetches stop after their first 256 KB until released, added as table1. */
  private ParquetServer.Held bigTable() {
    byte[] big = ParquetFixtures.write(dir.resolve("big.parquet"),
        "SELECT range AS id, md5(range::VARCHAR) AS h FROM range(100000)");
    ParquetServer.Route route = chat.files.route("/big.parquet").content(big);
    page.navigate(url());
    assertThat(page.locator("body")).hasAttribute("data-ready", "true");
    page.locator("#dataset-url").fill(chat.files.url("/big.parquet"));
    page.locator("#dataset-url").press("Enter");
    assertThat(page.locator(".dataset-card.ready .open")).containsText("table1");
    // Held from here: adding the file brought its footer to a worker already, and the query brings its columns.
    return route.holdRangesAfter(SENT);
  }

  @Test
  @DisplayName("while a query's columns download, the streaming answer shows 'Fetching data… 262 KB of …' with a bar, "
      + "then the answer")
  void answerShowsProgress() {
    ParquetServer.Held rest = bigTable();
    chat.gemini.next().call("execute_sql", new JsonObject().put("query", "SELECT count(h) AS n FROM table1"))
        .usage(10, 1);
    chat.gemini.next().answer("100,000 rows.");
    page.locator("#input").fill("How many rows?");
    page.locator("#input").press("Enter");

    Locator phase = page.locator(".message.assistant .phase");
    try {
      assertThat(phase).containsText("Fetching data… 262 KB of ");
      assertThat(phase.locator("progress")).hasCount(1);
    } finally {
      rest.release();
    }
    assertThat(page.locator(".message.assistant .content").last()).hasText("100,000 rows.");
    assertThat(page.locator(".result-table td").first()).hasText("100,000");
  }

  @Test
  @DisplayName("the SQL runner shows the same while its query's columns download, and hides it once the result is in")
  void runnerShowsProgress() {
    ParquetServer.Held rest = bigTable();
    page.locator(".sql-runner summary").click();
    page.locator("#sql-input").fill("SELECT count(h) AS n FROM table1");
    page.locator("#sql-run").click();

    try {
      assertThat(page.locator("#sql-progress")).containsText("Fetching data… 262 KB of ");
    } finally {
      rest.release();
    }
    assertThat(page.locator(".result-table td").first()).hasText("100,000");
    assertThat(page.locator("#sql-progress")).isHidden();
  }
}
