package io.quarry.app;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;

import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** A URL typed in the dataset box belongs to its conversation: one Enter after switching never adds it elsewhere. */
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
}
