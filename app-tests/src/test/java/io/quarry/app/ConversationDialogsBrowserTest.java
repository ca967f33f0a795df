package io.quarry.app;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Rename and delete of a conversation ask in the page's own accessible dialog, never the browser's prompt/confirm. */
class ConversationDialogsBrowserTest extends BrowserTestBase {

  @Override
  boolean sharesNode() {
    return true;
  }

  private String conversation(String title) {
    String id = chat.conversation();
    chat.send(HttpMethod.PATCH, "/api/conversations/" + id, new JsonObject().put("title", title));
    return id;
  }

  private Locator button(String name) {
    return page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName(name).setExact(true));
  }

  private Locator dialog(String name) {
    return page.getByRole(AriaRole.DIALOG, new Page.GetByRoleOptions().setName(name));
  }

  @Test
  @DisplayName("Rename and Delete open a labelled modal dialog with focus inside: Escape cancels and gives focus back"
      + " to the button that opened it, Enter renames or deletes; the browser's own dialogs never show")
  void renameAndDeleteAskInThePage() {
    List<String> nativeDialogs = new ArrayList<>();
    page.onDialog(d -> {
      nativeDialogs.add(d.type());
      d.dismiss();
    });
    String cars = conversation("Cars");
    conversation("Penguins");
    new PageActions(page, chat, url()).open();

    button("Rename Cars").click();
    Locator rename = dialog("Rename conversation");
    assertThat(rename).isVisible();
    assertThat(rename).hasAttribute("aria-modal", "true");
    Locator title = rename.getByLabel("Title");
    assertThat(title).isFocused();
    assertThat(title).hasValue("Cars");
    Axe.assertNoGraveViolation(page, "rename dialog open");
    title.fill("Cars of 1970");
    title.press("Escape");
    assertThat(rename).hasCount(0);
    assertThat(button("Rename Cars")).isFocused();
    assertThat(page.locator("#conversation-list .select", new Page.LocatorOptions().setHasText("Cars")))
        .hasText("Cars");

    button("Rename Cars").click();
    dialog("Rename conversation").getByLabel("Title").fill("Cars of 1970");
    dialog("Rename conversation").getByLabel("Title").press("Enter");
    assertThat(dialog("Rename conversation")).hasCount(0);
    assertThat(button("Rename Cars of 1970")).isFocused();
    assertThat(chat.conversationJson(cars).getJsonObject("conversation").getString("title")).isEqualTo("Cars of 1970");

    button("Delete Penguins").click();
    Locator delete = dialog("Delete conversation");
    assertThat(delete).hasAttribute("aria-modal", "true");
    assertThat(delete).containsText("Delete \"Penguins\" with its messages, datasets and results?");
    assertThat(delete.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Delete"))).isFocused();
    page.keyboard().press("Escape");
    assertThat(delete).hasCount(0);
    assertThat(button("Delete Penguins")).isFocused();
    assertThat(page.locator("#conversation-list li")).hasCount(2);

    button("Delete Penguins").click();
    page.keyboard().press("Enter");
    assertThat(page.locator("#conversation-list li")).hasCount(1);
    assertThat(page.locator("#conversation-title")).hasText("Cars of 1970");
    assertThat(nativeDialogs).isEmpty();
  }

  @Test
  @DisplayName("while an answer streams, Escape in the dialog closes the dialog and leaves the answer streaming")
  void escapeInTheDialogDoesNotStopTheAnswer() {
    PageActions ui = new PageActions(page, chat, url());
    ui.open();
    chat.gemini.next().text("Counting the rows one by one").stall();
    ui.ask("Count slowly");
    assertThat(page.locator(".message.assistant .content")).containsText("Counting the rows");
    page.locator("#conversation-list li").first().locator(".icon").first().click();
    assertThat(dialog("Rename conversation")).isVisible();
    page.keyboard().press("Escape");
    assertThat(dialog("Rename conversation")).hasCount(0);
    assertThat(page.locator("#stop")).isVisible();
    assertThat(page.locator(".status-note")).hasCount(0);
    page.locator("#stop").click();
    assertThat(page.locator(".status-note")).hasText("Stopped.");
  }
}
