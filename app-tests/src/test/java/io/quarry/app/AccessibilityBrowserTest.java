package io.quarry.app;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.Locator;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Issue 20, part 6: axe-core (from its webjar) finds no serious or critical violation in any page state, the app
 * works by keyboard with a visible focus, and a polite live region says what finished.
 */
class AccessibilityBrowserTest extends BrowserTestBase {

  @Override
  boolean sharesNode() {
    return true;
  }

  /** Tabs tried before giving up on reaching a control. */
  static final int MAX_TABS = 60;

  PageActions ui;

  @BeforeEach
  void open() {
    ui = new PageActions(page, chat, url());
    ui.open();
  }

  @Test
  @DisplayName("A11Y-1: axe finds no serious or critical violation on the empty page, with a table ready and its "
      + "starter questions, answered with a table and a chart, with the schema modal open, and with search results")
  void everyDesktopState() {
    Axe.assertNoGraveViolation(page, "empty");

    ui.addCars();
    assertThat(page.locator("#starter-list button").first()).isVisible();
    Axe.assertNoGraveViolation(page, "table ready, starter questions");

    ui.askCarsByOrigin();
    ui.askChartOfCarsByOrigin();
    ui.answered();
    Axe.assertNoGraveViolation(page, "answered, with a table and a chart");

    page.locator(".dataset-card .open").click();
    assertThat(page.locator("#schema-modal")).isVisible();
    Axe.assertNoGraveViolation(page, "schema modal open");
    page.locator("#schema-close").click();
    assertThat(page.locator("#schema-modal")).isHidden();

    page.locator("#conversation-search").fill("cars");
    assertThat(page.locator("#search-results li")).hasCount(1);
    Axe.assertNoGraveViolation(page, "search results");
    page.locator("#conversation-search").fill("nothing like it");
    assertThat(page.locator("#search-status")).hasText("No conversation mentions “nothing like it”.");
    Axe.assertNoGraveViolation(page, "search found nothing");
  }

  @Test
  @DisplayName("A11Y-2: on a phone, axe finds no serious or critical violation with the page as it opens and with "
      + "either drawer open")
  void phoneStates() {
    page.setViewportSize(PhoneBrowserTest.WIDTH, PhoneBrowserTest.HEIGHT);
    ui.addCars();
    Axe.assertNoGraveViolation(page, "phone");
    page.locator("#open-conversations").click();
    assertThat(page.locator("#conversations-panel")).isVisible();
    Axe.assertNoGraveViolation(page, "phone, conversations drawer open");
    page.keyboard().press("Escape");
    page.locator("#open-datasets").click();
    assertThat(page.locator("#datasets-panel")).isVisible();
    Axe.assertNoGraveViolation(page, "phone, datasets drawer open");
  }

  @Test
  @DisplayName("A11Y-3: Tab from the skip link reaches the conversation search and the chat box; every control Tab "
      + "reaches on the way round the page shows a visible focus outline")
  void keyboardOnDesktop() {
    ui.addCars();
    assertThat(page.locator("#starter-list button").first()).isVisible();
    page.locator("#skip-to-input").focus();
    java.util.Set<String> reached = new java.util.HashSet<>();
    boolean end = false;
    for (int tabs = 0; tabs < MAX_TABS * 2 && !end; tabs++) {
      page.keyboard().press("Tab");
      // Past the page's last control, focus leaves the page (to the browser's own controls).
      end = isFocused("body");
      if (!end) {
        reached.add((String) page.evaluate("() => document.activeElement.id || document.activeElement.className"));
        assertFocusVisible();
      }
    }
    assertThat(end).as("Tab went through the whole page").isTrue();
    assertThat(reached).as("controls reached by Tab").contains("new-conversation", "conversation-search", "theme",
        "starter", "input", "send", "dataset-url", "open");

    page.locator("#skip-to-input").focus();
    assertThat(tabUntil("#conversation-search")).as("the search box reached by Tab").isTrue();
    assertFocusVisible();
    page.keyboard().type("nothing like it");
    assertThat(page.locator("#search-status")).hasText("No conversation mentions “nothing like it”.");
    page.keyboard().press("Escape");
    assertThat(page.locator("#conversation-search")).hasValue("");
    assertThat(page.locator("#conversation-list li")).hasCount(1);
    assertThat(tabUntil("#input")).as("the chat box reached by Tab").isTrue();
    assertFocusVisible();
  }

  @Test
  @DisplayName("A11Y-4: on a phone, Tab from the skip link reaches the drawers' buttons and the chat box; Enter opens "
      + "a drawer with focus inside it, Tab reaches its search box and stays in the drawer, Esc closes it and focus "
      + "goes back to its button")
  void keyboardOnAPhone() {
    page.setViewportSize(PhoneBrowserTest.WIDTH, PhoneBrowserTest.HEIGHT);
    page.locator("#skip-to-input").focus();
    assertThat(tabUntil("#open-conversations")).as("the conversations button reached by Tab").isTrue();
    assertFocusVisible();
    page.keyboard().press("Enter");
    Locator drawer = page.locator("#conversations-panel");
    assertThat(drawer).isVisible();
    assertThat(page.locator("#open-conversations")).hasAttribute("aria-expanded", "true");
    assertThat(isFocused("#conversations-panel *")).as("focus inside the drawer").isTrue();
    assertThat(tabUntil("#conversation-search")).as("the search box reached by Tab").isTrue();
    for (int i = 0; i < 15; i++) {
      page.keyboard().press("Tab");
      assertThat(isFocused("#conversations-panel *")).as("focus stays in the open drawer").isTrue();
    }
    page.keyboard().press("Escape");
    assertThat(drawer).isHidden();
    assertThat(page.locator("#open-conversations")).isFocused();
    assertThat(page.locator("#open-conversations")).hasAttribute("aria-expanded", "false");

    assertThat(tabUntil("#open-datasets")).as("the datasets button reached by Tab").isTrue();
    page.keyboard().press("Enter");
    assertThat(page.locator("#datasets-panel")).isVisible();
    assertThat(isFocused("#datasets-panel *")).as("focus inside the drawer").isTrue();
    assertThat(tabUntil("#dataset-url")).as("the URL box reached by Tab").isTrue();
    page.keyboard().press("Escape");
    assertThat(page.locator("#datasets-panel")).isHidden();
    assertThat(page.locator("#open-datasets")).isFocused();
    assertThat(tabUntil("#input")).as("the chat box reached by Tab").isTrue();
  }

  @Test
  @DisplayName("A11Y-5: a polite live region announces a finished answer (not its tokens) and what changed: a query "
      + "running, a table ready")
  void politeAnnouncements() {
    Locator announcer = page.locator("#announcer");
    assertThat(announcer).hasAttribute("aria-live", "polite");
    assertThat(announcer).hasAttribute("role", "status");
    ui.addCars();
    assertThat(announcer).hasText("table1 is ready.");
    chat.gemini.next().call("execute_sql", new JsonObject().put("query", "SELECT count(*) AS n FROM table1"))
        .usage(10, 1);
    chat.gemini.next().text("There are ").gate("rest").text("406 cars.").usage(10, 3);
    ui.ask("How many cars?");
    assertThat(announcer).hasText("Running a query…");
    assertThat(page.locator(".message.assistant .content")).containsText("There are");
    assertThat(announcer).not().containsText("There are");
    chat.gemini.release("rest");
    assertThat(announcer).hasText("Answer: There are 406 cars.");
  }

  private boolean tabUntil(String selector) {
    for (int tabs = 0; tabs < MAX_TABS; tabs++) {
      page.keyboard().press("Tab");
      if (isFocused(selector)) {
        return true;
      }
    }
    return false;
  }

  private boolean isFocused(String selector) {
    return (Boolean) page.evaluate("s => document.activeElement?.matches(s) ?? false", selector);
  }

  /** The focused control matches :focus-visible and draws an outline of at least 2px. */
  private void assertFocusVisible() {
    JsonObject focus = new JsonObject((String) page.evaluate("() => { const e = document.activeElement;"
        + " const s = getComputedStyle(e); return JSON.stringify({ html: e.outerHTML.slice(0, 120),"
        + " visible: e.matches(':focus-visible'), style: s.outlineStyle, width: parseFloat(s.outlineWidth) }); }"));
    String control = focus.getString("html");
    assertThat(focus.getBoolean("visible")).as("focus-visible on %s", control).isTrue();
    assertThat(focus.getString("style")).as("outline style of %s", control).isNotEqualTo("none");
    assertThat(focus.getDouble("width")).as("outline width of %s", control).isGreaterThanOrEqualTo(2.0);
  }
}
