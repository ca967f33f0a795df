package io.quarry.app;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import io.vertx.core.http.HttpMethod;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Issue 49: removing a dataset and closing its schema with a name unsaved ask in the page's own dialog, never the
 * browser's confirm(); Esc closes each of these dialogs and gives focus back to what opened it.
 */
class DatasetDialogsBrowserTest extends BrowserTestBase {

  @Override
  boolean sharesNode() {
    return true;
  }

  PageActions ui;

  @BeforeEach
  void open() {
    // The browser's confirm() is recorded, and says yes as a user asked by it would.
    page.addInitScript("window.confirmed = []; window.confirm = (m) => { window.confirmed.push(m); return true; };");
    ui = new PageActions(page, chat, url());
    ui.open();
    ui.addCars();
  }

  private Locator dialog(String name) {
    return page.getByRole(AriaRole.DIALOG, new Page.GetByRoleOptions().setName(name));
  }

  private Locator button(Locator within, String name) {
    return within.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName(name).setExact(true));
  }

  private Locator modal() {
    return page.locator("#schema-modal");
  }

  @SuppressWarnings("unchecked")
  private List<String> confirmCalls() {
    return (List<String>) page.evaluate("() => window.confirmed");
  }

  @Test
  @DisplayName("Remove asks in the page's own dialog: Esc and Cancel keep the dataset, focus back on its Remove;"
      + " Remove there removes it, focus in the URL box; the browser's confirm() is never called")
  void removeAsksInThePage() {
    Locator remove = button(page.locator("#dataset-list"), "Remove table1");
    remove.focus();
    page.keyboard().press("Enter");
    Locator ask = dialog("Remove dataset");
    assertThat(ask).hasAttribute("aria-modal", "true");
    assertThat(ask).containsText("Remove table1? Its SQL name stops working in this conversation.");
    assertThat(button(ask, "Remove")).isFocused();
    Axe.assertNoGraveViolation(page, "remove dialog open");
    page.keyboard().press("Escape");
    assertThat(ask).hasCount(0);
    assertThat(remove).isFocused();

    remove.click();
    button(ask, "Cancel").click();
    assertThat(ask).hasCount(0);
    assertThat(remove).isFocused();
    assertThat(page.locator(".dataset-card")).hasCount(1);

    remove.click();
    button(ask, "Remove").click();
    assertThat(page.locator(".dataset-card")).hasCount(0);
    assertThat(page.locator("#dataset-url")).isFocused();
    String conversation = chat.send(HttpMethod.GET, "/api/conversations", null).bodyAsJsonObject()
        .getJsonArray("conversations").getJsonObject(0).getString("id");
    assertThat(chat.conversationJson(conversation).getJsonArray("datasets")).isEmpty();
    assertThat(confirmCalls()).isEmpty();
  }

  @Test
  @DisplayName("Esc closes the schema modal, opened by keyboard or by click, with focus back on the dataset's name; with"
      + " a name unsaved, Esc or Close asks in the page's own dialog, whose Esc keeps the modal and gives focus back to"
      + " where it was asked from, and whose Close closes both, focus on the dataset's name")
  void escapeGivesFocusBack() {
    Locator name = page.locator(".dataset-card .open");
    name.focus();
    page.keyboard().press("Enter");
    assertThat(modal()).isVisible();
    page.keyboard().press("Escape");
    assertThat(modal()).isHidden();
    assertThat(name).isFocused();

    name.click();
    assertThat(modal()).isVisible();
    page.locator("#schema-name").click();
    page.keyboard().press("Control+A");
    page.keyboard().type("vehicles");
    page.keyboard().press("Escape");
    Locator ask = dialog("Close without renaming?");
    assertThat(ask).containsText("The new name \"vehicles\" was not saved.");
    assertThat(button(ask, "Close")).isFocused();
    page.keyboard().press("Escape");
    assertThat(ask).hasCount(0);
    assertThat(modal()).isVisible();
    assertThat(page.locator("#schema-name")).isFocused();
    assertThat(page.locator("#schema-name")).hasValue("vehicles");

    page.locator("#schema-close").focus();
    page.keyboard().press("Enter");
    assertThat(ask).isVisible();
    page.keyboard().press("Escape");
    assertThat(ask).hasCount(0);
    assertThat(page.locator("#schema-close")).isFocused();
    page.keyboard().press("Enter");
    button(ask, "Close").click();
    assertThat(modal()).isHidden();
    assertThat(name).isFocused();
    assertThat(name).hasText("table1 [406 × 9]");
    assertThat(confirmCalls()).isEmpty();
  }

  @Test
  @DisplayName("a card drawn anew while one of its buttons has the focus (its dataset refreshed in another tab: loading,"
      + " then ready) keeps the focus on that button")
  void redrawnCardKeepsTheFocus() {
    Locator remove = button(page.locator("#dataset-list"), "Remove table1");
    remove.focus();
    remove.evaluate("b => { b.dataset.drawnBefore = 'true'; }");
    page.locator("#announcer").evaluate("a => { a.textContent = ''; }");
    String conversation = chat.send(HttpMethod.GET, "/api/conversations", null).bodyAsJsonObject()
        .getJsonArray("conversations").getJsonObject(0).getString("id");
    String dataset = chat.conversationJson(conversation).getJsonArray("datasets").getJsonObject(0).getString("id");
    chat.send(HttpMethod.POST, "/api/conversations/" + conversation + "/datasets/" + dataset + "/refresh", null);

    // The page announces a dataset ready as it draws its card anew: both are done once this is said.
    assertThat(page.locator("#announcer")).hasText("table1 is ready.");
    assertThat(page.locator(".dataset-card [data-drawn-before]")).hasCount(0);
    assertThat(remove).isFocused();
  }
}
