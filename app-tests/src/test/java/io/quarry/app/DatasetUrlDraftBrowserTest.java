package io.quarry.app;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Response;
import io.quarry.testing.ParquetServer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A URL typed in the dataset box belongs to its conversation: one Enter after switching never adds it elsewhere, and
 * an add that fails after switching says so in its own conversation, not in the one shown (issue 49).
 */
class DatasetUrlDraftBrowserTest extends BrowserTestBase {

  @Override
  boolean sharesNode() {
    return true;
  }

  private void conversation(String title) {
    String id = chat.conversation();
    chat.send(HttpMethod.PATCH, "/api/conversations/" + id, new JsonObject().put("title", title));
  }

  private void choose(String title) {
    page.locator("#conversation-list .select", new Page.LocatorOptions().setHasText(title)).click();
    assertThat(page.locator("#conversation-title")).hasText(title);
  }

  @Test
  @DisplayName("a URL typed and not added stays with its conversation: another shows its own (empty when none), and"
      + " Enter there adds nothing of the first one's")
  void eachConversationKeepsItsUrl() {
    conversation("Cars");
    conversation("Penguins");
    new PageActions(page, chat, url()).open();
    Locator box = page.locator("#dataset-url");
    assertThat(page.locator("#conversation-title")).hasText("Penguins");
    String penguins = chat.files.url("/penguins.parquet");
    box.fill(penguins);

    choose("Cars");
    assertThat(box).hasValue("");
    String cars = chat.files.url("/cars.parquet");
    box.fill(cars);
    choose("Penguins");
    assertThat(box).hasValue(penguins);
    choose("Cars");
    assertThat(box).hasValue(cars);
    assertThat(page.locator(".dataset-card")).hasCount(0);
  }

  @Test
  @DisplayName("issue 49: an add whose file's server answers only after another conversation was opened fails there"
      + " without a card or its URL; the conversation it was added to shows its 'Not added' card and its URL when"
      + " opened again")
  void aFailedAddAnswersInItsOwnConversation() throws TimeoutException {
    conversation("Cars");
    conversation("Penguins");
    new PageActions(page, chat, url()).open();
    assertThat(page.locator("#conversation-title")).hasText("Penguins");
    ParquetServer.Held tail = chat.files.route("/notes.parquet")
        .content("<html><body>Moved</body></html>".getBytes(StandardCharsets.UTF_8)).holdTails();
    String notes = chat.files.url("/notes.parquet");
    Locator box = page.locator("#dataset-url");
    box.fill(notes);
    box.press("Enter");
    tail.arrived().await(10, TimeUnit.SECONDS);
    choose("Cars");

    Response added = page.waitForResponse(r -> r.request().method().equals("POST") && r.url().endsWith("/datasets"),
        tail::release);
    assertThat(added.status()).isGreaterThanOrEqualTo(400);
    added.finished();
    // Two frames after its body came: the page has read the answer, and would have drawn a card by now.
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))");
    assertThat(page.locator(".dataset-card")).hasCount(0);
    assertThat(box).hasValue("");

    choose("Penguins");
    Locator card = page.locator(".dataset-card.not-added", new Page.LocatorOptions().setHasText(notes));
    assertThat(card.locator(".message-text")).hasText("Not a valid parquet file");
    assertThat(box).hasValue(notes);
    assertThat(box).hasAttribute("aria-invalid", "true");
    choose("Cars");
    assertThat(page.locator(".dataset-card")).hasCount(0);
    choose("Penguins");
    assertThat(card).hasCount(1);
  }
}
