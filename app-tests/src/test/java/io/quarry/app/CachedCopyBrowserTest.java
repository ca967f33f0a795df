package io.quarry.app;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;

import com.microsoft.playwright.Locator;
import io.quarry.testing.FakeGemini;
import io.quarry.testing.ParquetServer;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A file's server that is slow to confirm the cached copy is current (the red team held every worker slot
 * that way) no longer holds the answer: after worker.revalidateWaitMs it comes from the cached copy, and the
 * table, the model and a reload all say so. The wait is the default 5 s: the first answer's server confirms within it
 * however loaded the host is. With 0.3 s, one run's first answer already came from the cached copy (its loopback
 * server, in a test JVM beside two others on two busy cores, took longer), and the test failed on a correct node.
 */
class CachedCopyBrowserTest extends BrowserTestBase {

  static final String NOTE_START = "Answered from the cached copy of table1, last confirmed current at ";

  @Override
  boolean sharesNode() {
    return true;
  }

  @Test
  @DisplayName("an answer from a cached copy its server did not confirm in time says so in the table, to the model and after a reload")
  void cachedCopyNoted() {
    page.navigate(url());
    assertThat(page.locator("body")).hasAttribute("data-ready", "true");
    page.locator("#dataset-url").fill(chat.files.url("/people.parquet"));
    page.locator("#dataset-url").press("Enter");
    assertThat(page.locator(".dataset-card.ready .open")).containsText("table1");

    countPeople("100 people.");
    assertThat(page.locator(".result-table td").first()).hasText("100");
    assertThat(page.locator(".message.assistant .content").last()).hasText("100 people.");
    assertThat(page.locator(".result-note")).hasCount(0);

    ParquetServer.Held revalidations = chat.files.route("/people.parquet").holdRevalidations();
    try {
      countPeople("Still 100 people, from the cached copy.");
      Locator note = page.locator(".result-note");
      assertThat(note).containsText(NOTE_START);
      assertThat(note).containsText("its server did not confirm within 5 s that the file is unchanged");
      assertThat(page.locator(".result-table").last().locator("td").first()).hasText("100");
      List<FakeGemini.Request> requests = chat.gemini.requests();
      List<JsonObject> responses = requests.get(requests.size() - 1).functionResponses();
      JsonObject told = responses.get(responses.size() - 1).getJsonObject("response");
      org.assertj.core.api.Assertions.assertThat(told.getString("note")).startsWith(NOTE_START);

      page.reload();
      assertThat(page.locator(".result-note")).hasCount(1);
      assertThat(page.locator(".result-note")).containsText(NOTE_START);
    } finally {
      revalidations.release();
    }
  }

  private void countPeople(String answer) {
    chat.gemini.next().call("execute_sql", new JsonObject().put("query", "SELECT count(*) AS n FROM table1"))
        .usage(10, 1);
    chat.gemini.next().answer(answer);
    page.locator("#input").fill("How many people?");
    page.locator("#input").press("Enter");
    assertThat(page.locator(".message.assistant .content").last()).hasText(answer);
  }
}
