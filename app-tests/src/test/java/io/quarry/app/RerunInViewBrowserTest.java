package io.quarry.app;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;

import com.microsoft.playwright.Locator;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** An edited SQL run again shows its new result below the answer: the view goes to it and screen readers hear of it. */
class RerunInViewBrowserTest extends BrowserTestBase {

  @Override
  boolean sharesNode() {
    return true;
  }

  @Test
  @DisplayName("after Run on an edited SQL the new 'Edited SQL' result's head is in view and a polite message says a"
      + " new result is below, with its row count")
  void newResultIsBroughtIntoViewAndAnnounced() {
    PageActions ui = new PageActions(page, chat, url());
    ui.open();
    ui.addCars();
    ui.askCarsByOrigin();
    // A later answer the view follows to the end: the edit of the first one's SQL lands above it, not at the end.
    chat.gemini.next().call("execute_sql", new JsonObject().put("query", PageActions.CARS_BY_ORIGIN)).usage(100, 10);
    chat.gemini.next().answer("Still mostly from USA.");
    ui.ask("And again?");
    assertThat(page.locator(".message.assistant").nth(1).locator(".result-table tbody tr")).hasCount(3);
    ui.answered();
    Locator answer = page.locator(".message.assistant").first();
    Locator panel = answer.locator(".artifact").first().locator(".sql-panel");
    panel.locator("summary").click();
    // Tall enough that, left where it is drawn, its head would be out of a 900 px high window.
    panel.locator("textarea").fill("SELECT * FROM table1 LIMIT 40");
    panel.locator("button").click();

    Locator edited = answer.locator(".artifact.run.edited");
    assertThat(edited.locator(".result-table tbody tr")).hasCount(10);
    assertThat(edited.locator(".run-label")).isInViewport();
    // Not pulled away by what is drawn afterwards (the view no longer follows the end once led to the result). Clicked
    // where they are, not scrolled to first as Playwright's click() does: the block (with its Pin to board) is taller
    // than the window, and the test's own scrolling would move the label away, not the page's.
    edited.locator(".chart-actions summary").dispatchEvent("click");
    edited.locator(".chart-actions button", new Locator.LocatorOptions().setHasText("Draw")).dispatchEvent("click");
    assertThat(edited.locator(".chart svg")).hasCount(1);
    assertThat(edited.locator(".run-label")).isInViewport();
    assertThat(page.locator("#announcer")).hasText("New result below: Edited SQL, 40 rows");
  }
}
