package io.quarry.app;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;

import com.microsoft.playwright.Locator;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Issue 20, part 4: the search box above the conversation list finds conversations by their titles and messages,
 * shows the words around a match as text, says when nothing matches, and Esc brings the whole list back.
 */
class ConversationSearchBrowserTest extends BrowserTestBase {

  /** Runs no SQL: a node without worker processes (nor their private cluster) starts in a fraction of the time. */
  @Override
  Map<String, String> env() {
    return Map.of("QUARRY_LOCAL_WORKERS", "0");
  }

  PageActions ui;

  @BeforeEach
  void open() {
    ui = new PageActions(page, chat, url());
    ui.open();
  }

  private void converse(String question, String answer) {
    chat.gemini.next().answer(answer);
    ui.ask(question);
    ui.answered();
    assertThat(page.locator("#conversation-list li.active .select")).hasText(question);
  }

  private void newConversation() {
    page.locator("#new-conversation").click();
    assertThat(page.locator(".message")).hasCount(0);
  }

  @Test
  @DisplayName("SEARCH-1: of three conversations, a word only in one's answer finds that one with the words around "
      + "it (as text, not HTML), a word of a renamed title finds that one, and a word in none says so; Esc and "
      + "emptying the box bring back the whole list")
  void searchThreeConversations() {
    converse("How many cars are there?", "The <i>zeppelin</i> list holds 406 cars.");
    newConversation();
    converse("Where do penguins live?", "Penguins live on islands in the south.");
    newConversation();
    converse("How often did it rain?", "It rained on 600 days.");
    String rain = chat.send(HttpMethod.GET, "/api/conversations", null).bodyAsJsonObject()
        .getJsonArray("conversations").getJsonObject(0).getString("id");
    chat.send(HttpMethod.PATCH, "/api/conversations/" + rain, new JsonObject().put("title", "Budget review"));
    ui.reload();
    assertThat(page.locator("#conversation-list li")).hasCount(3);

    Locator box = page.getByRole(com.microsoft.playwright.options.AriaRole.SEARCHBOX,
        new com.microsoft.playwright.Page.GetByRoleOptions().setName("Search conversations"));
    Locator found = page.locator("#search-results li");
    Locator status = page.locator("#search-status");

    box.fill("ZEPPELIN");
    assertThat(status).hasText("1 conversation mentions “ZEPPELIN”.");
    assertThat(found).hasCount(1);
    assertThat(found.locator(".found-title")).hasText("How many cars are there?");
    assertThat(found.locator(".found-match")).hasText("The <i>zeppelin</i> list holds 406 cars.");
    assertThat(found.locator(".found-match i")).hasCount(0);
    assertThat(found.locator(".found-match mark")).hasText("zeppelin");
    assertThat(page.locator("#conversation-list")).isHidden();

    box.fill("budget");
    assertThat(status).hasText("1 conversation mentions “budget”.");
    assertThat(found.locator(".found-title")).hasText("Budget review");
    assertThat(found.locator(".found-match")).hasCount(0);

    box.fill("xylophone");
    assertThat(status).hasText("No conversation mentions “xylophone”.");
    assertThat(found).hasCount(0);
    assertThat(page.locator("#search-results")).isHidden();

    box.press("Escape");
    assertThat(box).hasValue("");
    assertThat(status).isEmpty();
    assertThat(page.locator("#conversation-list li")).hasCount(3);
    assertThat(page.locator("#conversation-list")).isVisible();
    assertThat(page.locator("#search-results")).isHidden();

    box.fill("penguins");
    assertThat(found).hasCount(1);
    found.locator(".select").click();
    assertThat(page.locator("#conversation-title")).hasText("Where do penguins live?");
    assertThat(page.locator(".message.assistant .content")).hasText("Penguins live on islands in the south.");
    box.fill("");
    assertThat(page.locator("#conversation-list li")).hasCount(3);
    assertThat(status).isEmpty();
  }
}
