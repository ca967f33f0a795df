package io.quarry.app;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.Locator;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The keyboard (item 10): Esc stops a streaming answer and focus goes back to the chat box; a skip link leads
 * there; a result's table is one tab stop whose arrow keys move between columns.
 */
class KeyboardBrowserTest extends BrowserTestBase {

  @Override
  boolean sharesNode() {
    return true;
  }

  /** Tabs tried before giving up on reaching the chat box. */
  static final int MAX_TABS = 80;

  PageActions ui;

  @BeforeEach
  void open() {
    ui = new PageActions(page, chat, url());
    ui.open();
  }

  @Test
  @DisplayName("Esc stops a streaming answer, which keeps its text, and the chat box has focus after it")
  void escapeStops() {
    chat.gemini.next().text("Counting the rows one by one").stall();
    ui.ask("Count slowly");
    assertThat(page.locator(".message.assistant .content")).containsText("Counting the rows");
    page.locator("#theme").focus();
    page.keyboard().press("Escape");
    assertThat(page.locator("#stop")).isHidden();
    assertThat(page.locator(".status-note")).hasText("Stopped.");
    assertThat(page.locator("#input")).isFocused();
  }

  @Test
  @DisplayName("after Stop is clicked, the chat box has focus")
  void stopGivesFocusBack() {
    chat.gemini.next().text("Counting the rows one by one").stall();
    ui.ask("Count slowly");
    assertThat(page.locator(".message.assistant .content")).containsText("Counting the rows");
    page.locator("#stop").click();
    assertThat(page.locator(".status-note")).hasText("Stopped.");
    assertThat(page.locator("#input")).isFocused();
  }

  @Test
  @DisplayName("a skip link to the chat box comes before every other control, shows when focused and leads there")
  void skipLink() {
    page.locator("#new-conversation").focus();
    page.keyboard().press("Shift+Tab");
    Locator skip = page.locator("#skip-to-input");
    assertThat(skip).isFocused();
    assertThat(skip).isInViewport();
    assertThat(skip).hasText("Skip to the chat box");
    page.keyboard().press("Enter");
    assertThat(page.locator("#input")).isFocused();
  }

  @Test
  @DisplayName("with two results of 9 columns, each table is one tab stop on the way to the chat box; the arrow keys "
      + "move along its header and Enter sorts, focus staying on the column")
  void tableIsOneTabStop() {
    ui.addCars();
    ui.runSql("SELECT * FROM table1 LIMIT 5");
    ui.runSql("SELECT * FROM table1 LIMIT 7");
    assertThat(page.locator(".result-table")).hasCount(2);

    page.locator(".sql-panel summary").first().focus();
    int tabs = 0;
    int inTables = 0;
    while (!isFocused("#input") && tabs < MAX_TABS) {
      page.keyboard().press("Tab");
      tabs++;
      if (isFocused(".result-table th, .result-table td")) {
        inTables++;
      }
    }
    assertThat(isFocused("#input")).as("the chat box reached by Tab").isTrue();
    assertThat(inTables).as("tab stops inside the two tables").isEqualTo(2);

    Locator headers = page.locator(".result-table").first().locator("thead th");
    headers.first().focus();
    page.keyboard().press("ArrowRight");
    page.keyboard().press("ArrowRight");
    assertThat(headers.nth(2)).isFocused();
    page.keyboard().press("Enter");
    assertThat(headers.nth(2)).hasAttribute("aria-sort", "ascending");
    assertThat(headers.nth(2)).isFocused();
    page.keyboard().press("ArrowDown");
    assertThat(page.locator(".result-table").first().locator("tbody tr").first().locator("td").nth(2)).isFocused();
  }

  private boolean isFocused(String selector) {
    return (Boolean) page.evaluate("s => document.activeElement?.matches(s) ?? false", selector);
  }
}
