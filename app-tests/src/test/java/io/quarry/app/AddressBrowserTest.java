package io.quarry.app;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;

import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Every conversation has an address, /c/<id>: the bar names the one open; reload, Back, Forward and links follow it. */
class AddressBrowserTest extends BrowserTestBase {

  @Override
  boolean sharesNode() {
    return true;
  }

  /** A conversation made over REST with a title of its own, so the page shows which one is open. */
  private String conversation(String title) {
    String id = chat.conversation();
    chat.send(HttpMethod.PATCH, "/api/conversations/" + id, new JsonObject().put("title", title));
    return id;
  }

  private void showing(String id, String title) {
    assertThat(page).hasURL(url() + "c/" + id);
    assertThat(page.locator("#conversation-title")).hasText(title);
    assertThat(page.locator("#conversation-list li.active")).hasAttribute("data-id", id);
  }

  @Test
  @DisplayName("the address bar names the conversation open; choosing another pushes its address, Back and Forward move"
      + " between them, and a reload opens the one being read, not the newest")
  void addressFollowsTheConversation() {
    String older = conversation("Older questions");
    String newer = conversation("Newer questions");
    PageActions ui = new PageActions(page, chat, url());
    ui.open();
    showing(newer, "Newer questions");

    page.locator("#conversation-list .select", new Page.LocatorOptions().setHasText("Older questions")).click();
    showing(older, "Older questions");
    page.goBack();
    showing(newer, "Newer questions");
    page.goForward();
    showing(older, "Older questions");

    ui.reload();
    showing(older, "Older questions");
  }

  @Test
  @DisplayName("an address naming no conversation of the user's says 'Conversation not found', and its button leads to"
      + " the conversations")
  void unknownAddress() {
    String mine = conversation("My questions");
    page.navigate(url() + "c/0f8fad5b-d9cb-469f-a165-70867728950e");
    assertThat(page.locator("body")).hasAttribute("data-ready", "true");
    assertThat(page.locator(".not-found")).containsText("Conversation not found");
    assertThat(page.locator("#input")).isDisabled();
    assertThat(page.locator("#conversation-list li.active")).hasCount(0);

    page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Show your conversations")).click();
    showing(mine, "My questions");
    assertThat(page.locator(".not-found")).hasCount(0);
    assertThat(page.locator("#input")).isEnabled();
  }

  @Test
  @DisplayName("issue 49 (4b): a malformed address (/c/not-a-uuid) shows the page saying 'Conversation not found', not"
      + " raw JSON, and its button leads to the conversations")
  void malformedAddress() {
    conversation("Mine, malformed");
    page.navigate(url() + "c/not-a-uuid");
    assertThat(page.locator("body")).hasAttribute("data-ready", "true");
    assertThat(page.locator(".not-found")).containsText("Conversation not found");
    assertThat(page.locator("#conversation-title")).hasText("Conversation not found");
    assertThat(page.locator("#input")).isDisabled();
    assertThat(page.locator("#conversation-list li.active")).hasCount(0);

    page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Show your conversations")).click();
    assertThat(page.locator(".not-found")).hasCount(0);
    assertThat(page).hasURL(Pattern.compile("/c/[0-9a-f-]{36}$"));
    assertThat(page.locator("#input")).isEnabled();
  }

  @Test
  @DisplayName("a result's address, /c/<id>#result-<result id>, opens its conversation scrolled to that result, marked")
  void resultAddress() {
    String id = conversation("Many results");
    chat.addDataset(id, "/people.parquet");
    List<String> results = new ArrayList<>();
    for (int from = 0; from < 50; from += 10) {
      results.add(chat.send(HttpMethod.POST, "/api/conversations/" + id + "/query", new JsonObject()
          .put("sql", "SELECT id, name, age FROM table1 WHERE id > " + from + " ORDER BY id LIMIT 10")
          .put("origin", "runner")).bodyAsJsonObject().getString("id"));
    }
    page.navigate(url() + "c/" + id + "#result-" + results.get(0));
    assertThat(page.locator("body")).hasAttribute("data-ready", "true");

    Locator linked = page.locator("[id='result-" + results.get(0) + "']");
    assertThat(linked).hasClass(Pattern.compile("\\blinked\\b"));
    assertThat(linked).isInViewport();
    assertThat(linked.locator(".result-table td").first()).hasText("1");
    assertThat(page.locator(".artifact.linked")).hasCount(1);
    // Opened at its end, as a conversation is, the page would show the last result instead.
    assertThat(page.locator("[id='result-" + results.get(4) + "'] .result-table tbody tr").last()).not().isInViewport();
  }
}
