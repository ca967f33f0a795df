package io.quarry.app;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;

import com.microsoft.playwright.Locator;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Numbers checked against the data (issue 20, part 2, in the browser): a number of an answer found in its results
 * links to its cell (its column and row on hover and focus; a click shows the cell, on the right page of the table),
 * a number several values are is marked neutrally with how many (issue 49: no link to one of them), a number found
 * nowhere is marked quietly, and a reload shows the same. An answer's linked numbers are one tab stop, the arrow keys
 * moving among them (issue 49).
 */
class CheckedNumbersBrowserTest extends BrowserTestBase {

  @Override
  boolean sharesNode() {
    return true;
  }

  /**
   * 25 rows, three pages: id 25's score 31.25 is on the third; "about 1.2M" is the reach of id 24 (1,166,664) and of
   * id 25 (1,215,275), told apart by the score of its sentence; 22 is an id, an age and a score (22.5) rounded.
   */
  static final String PEOPLE = "SELECT id, age, score, id * 48611 AS reach FROM table1 ORDER BY id LIMIT 25";
  static final String ANSWER = "The top score is **31.25** (reach about 1.2M). Age 43 appears once. All 25 rows were"
      + " read; 987 is a guess. 22 is an id and an age.";

  PageActions ui;

  @BeforeEach
  void open() {
    ui = new PageActions(page, chat, url());
    ui.open();
    ui.addDataset("/people.parquet", "table1 [100 × 6]");
  }

  private Locator answer() {
    return page.locator(".message.assistant .content").first();
  }

  private Locator checked(String text) {
    return answer().locator(".checked-number", new Locator.LocatorOptions().setHasText(text));
  }

  private void marksAsChecked() {
    assertThat(answer()).hasText(ANSWER.replace("**", ""));
    assertThat(answer().locator(".checked-number")).hasText(new String[] {"31.25", "1.2M", "43", "25"});
    assertThat(checked("31.25")).hasAttribute("title", "score, row 25 of the result");
    assertThat(checked("1.2M")).hasAttribute("title", "reach, row 25 of the result");
    assertThat(checked("43")).hasAttribute("title", "age, row 23 of the result");
    assertThat(answer().locator(".checked-number").last()).hasAttribute("title", "the result's row count");
    Locator wrong = answer().locator(".unchecked-number");
    assertThat(wrong).hasText(new String[] {"987"});
    assertThat(wrong).hasAttribute("title", "not found in the query results");
    Locator several = answer().locator(".several-number");
    assertThat(several).hasText(new String[] {"22"});
    assertThat(several).hasAttribute("title", "matches 3 values in the query results");
    assertThat(answer().locator("strong .checked-number")).hasText("31.25");
  }

  @Test
  @DisplayName("an answer's right, rounded, ambiguous and wrong numbers: the right and rounded ones link to their cells"
      + " (column and row on hover and focus), a click pages the table to the cell and marks it, the ambiguous one says"
      + " how many values it is, the wrong one is marked quietly; a reload shows the same")
  void numbersLinkToTheirCells() {
    chat.gemini.next().call("execute_sql", new JsonObject().put("query", PEOPLE)).usage(100, 10);
    chat.gemini.next().answer(ANSWER);
    ui.ask("Who scores highest?");
    ui.answered();
    marksAsChecked();

    checked("31.25").focus();
    assertThat(checked("31.25")).isFocused();
    org.assertj.core.api.Assertions.assertThat(checked("31.25").evaluate(
        "el => getComputedStyle(el, '::after').content")).isEqualTo("\"score, row 25 of the result\"");

    Locator table = page.locator(".message.assistant .artifact").first();
    assertThat(table.locator(".page-number")).hasText("Page 1 of 3");
    checked("31.25").click();
    assertThat(table.locator(".page-number")).hasText("Page 3 of 3");
    Locator found = table.locator("td.found-cell");
    assertThat(found).hasText("31.25");
    assertThat(found).isInViewport();
    assertThat(found).isFocused();

    checked("1.2M").click();
    assertThat(table.locator(".page-number")).hasText("Page 3 of 3");
    assertThat(table.locator("td.found-cell")).hasText("1,215,275");
    checked("43").click();
    assertThat(table.locator("td.found-cell")).hasText("43");
    assertThat(table.locator(".found-cell")).hasCount(1);

    // A table sorted since shows the result's own order again, so that the cell is the one the number was found in.
    table.locator("thead th").first().click();
    table.locator("thead th").first().click();
    assertThat(table.locator("thead th").first()).hasAttribute("aria-sort", "descending");
    checked("31.25").click();
    assertThat(table.locator("td.found-cell")).hasText("31.25");
    assertThat(table.locator(".page-number")).hasText("Page 3 of 3");

    answer().locator(".checked-number").last().click();
    assertThat(table.locator(".row-count.found-cell")).containsText("25 rows");

    ui.reload();
    marksAsChecked();
    checked("43").click();
    assertThat(page.locator(".message.assistant .artifact").first().locator("td.found-cell")).hasText("43");
  }

  @Test
  @DisplayName("an answer's numbers are marked as checked when it finishes, even while a redraw of its streamed text is"
      + " still waiting for a frame, and they stay marked once that frame and the next have passed")
  void marksShowWhileYouWatch() {
    chat.gemini.next().call("execute_sql", new JsonObject().put("query", PEOPLE)).usage(100, 10);
    chat.gemini.next().answer(ANSWER);
    // Frames are held, as when the last token and chat_complete arrive within one frame: the redraw the tokens ask for
    // is still pending when the answer finishes.
    page.evaluate("() => { window.realFrame = window.requestAnimationFrame.bind(window); window.heldFrames = [];"
        + " window.requestAnimationFrame = (callback) => window.heldFrames.push(callback); }");
    ui.ask("Who scores highest?");
    ui.answered();
    marksAsChecked();
    org.assertj.core.api.Assertions.assertThat((Integer) page.evaluate("() => window.heldFrames.length")).isPositive();

    page.evaluate("() => new Promise((done) => { window.requestAnimationFrame = window.realFrame;"
        + " window.heldFrames.forEach((callback) => callback(performance.now()));"
        + " window.realFrame(() => window.realFrame(done)); })");
    marksAsChecked();
  }

  @Test
  @DisplayName("issue 49: an answer's linked numbers are one tab stop: Tab reaches the first and leaves them after it;"
      + " ArrowRight, ArrowLeft, Home and End move among them, and Tab comes back to the one last focused")
  void numbersAreOneTabStop() {
    chat.gemini.next().call("execute_sql", new JsonObject().put("query", PEOPLE)).usage(100, 10);
    chat.gemini.next().answer(ANSWER);
    ui.ask("Who scores highest?");
    ui.answered();
    marksAsChecked();
    Locator links = answer().locator(".checked-number");
    Locator copy = page.locator(".message.assistant .answer-actions button").first();

    copy.focus();
    page.keyboard().press("Shift+Tab");
    assertThat(links.nth(0)).isFocused();
    assertThat(answer().locator(".checked-number[tabindex='0']")).hasCount(1);
    page.keyboard().press("Tab");
    assertThat(copy).isFocused();
    page.keyboard().press("Shift+Tab");
    assertThat(links.nth(0)).isFocused();

    page.keyboard().press("ArrowRight");
    assertThat(links.nth(1)).isFocused();
    page.keyboard().press("ArrowRight");
    assertThat(links.nth(2)).isFocused();
    page.keyboard().press("ArrowLeft");
    assertThat(links.nth(1)).isFocused();
    page.keyboard().press("End");
    assertThat(links.nth(3)).isFocused();
    page.keyboard().press("ArrowRight");
    assertThat(links.nth(3)).isFocused();
    page.keyboard().press("Home");
    assertThat(links.nth(0)).isFocused();
    page.keyboard().press("ArrowLeft");
    assertThat(links.nth(0)).isFocused();
    page.keyboard().press("End");
    page.keyboard().press("Tab");
    assertThat(copy).isFocused();
    page.keyboard().press("Shift+Tab");
    assertThat(links.nth(3)).isFocused();
    assertThat(answer().locator(".checked-number[tabindex='0']")).hasCount(1);
  }
}
