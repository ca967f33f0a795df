package io.quarry.app;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;

import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Text typed and not sent belongs to its conversation: switching shows the other one's, never carries it over. */
class DraftsBrowserTest extends BrowserTestBase {

  /** Runs no SQL: a node without worker processes (nor their private cluster) starts in a fraction of the time. */
  @Override
  Map<String, String> env() {
    return Map.of("QUARRY_LOCAL_WORKERS", "0");
  }

  private String conversation(String title) {
    String id = chat.conversation();
    chat.send(HttpMethod.PATCH, "/api/conversations/" + id, new JsonObject().put("title", title));
    return id;
  }

  private void choose(String title) {
    page.locator("#conversation-list .select", new Page.LocatorOptions().setHasText(title)).click();
    assertThat(page.locator("#conversation-title")).hasText(title);
  }

  @Test
  @DisplayName("each conversation keeps its own unsent text: switching shows the other's (empty when none), a reload"
      + " keeps it, and a sent question leaves no draft behind")
  void eachConversationKeepsItsDraft() {
    conversation("Cars");
    conversation("Penguins");
    PageActions ui = new PageActions(page, chat, url());
    ui.open();
    Locator box = page.locator("#input");
    assertThat(page.locator("#conversation-title")).hasText("Penguins");
    box.fill("Which species is heaviest?");

    choose("Cars");
    assertThat(box).hasValue("");
    box.fill("Which origin has the most cars?");
    choose("Penguins");
    assertThat(box).hasValue("Which species is heaviest?");
    choose("Cars");
    assertThat(box).hasValue("Which origin has the most cars?");

    ui.reload();
    assertThat(page.locator("#conversation-title")).hasText("Cars");
    assertThat(box).hasValue("Which origin has the most cars?");

    chat.gemini.next().answer("Most come from the USA.");
    box.press("Enter");
    ui.answered();
    assertThat(box).hasValue("");
    choose("Penguins");
    assertThat(box).hasValue("Which species is heaviest?");
    choose("Cars");
    assertThat(box).hasValue("");
  }
}
