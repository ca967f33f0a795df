package io.quarry.app;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;

import com.microsoft.playwright.Locator;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * An answer that fails (Gemini's 503) loses nothing (item 2): the question stays in the box, the error is stored
 * with the conversation and shows after a reload, and Retry asks the same question again.
 */
class FailedAnswerBrowserTest extends BrowserTestBase {

  /** Runs no SQL: a node without worker processes (nor their private cluster) starts in a fraction of the time. */
  @Override
  Map<String, String> env() {
    return Map.of("QUARRY_LOCAL_WORKERS", "0");
  }

  static final String QUESTION = "How many cars are there?";
  static final String UNAVAILABLE = "Gemini is unavailable right now (HTTP 503); try again shortly";

  PageActions ui;

  @BeforeEach
  void open() {
    ui = new PageActions(page, chat, url());
    ui.open();
  }

  private Locator errorBox() {
    return page.locator(".message.assistant .error-box");
  }

  private void failOnce() {
    chat.gemini.next().httpError(503, "The model is overloaded. Please try again later.");
    ui.ask(QUESTION);
    assertThat(errorBox()).containsText(UNAVAILABLE);
    ui.answered();
  }

  @Test
  @DisplayName("after a 503 the question is back in the box and the error has Retry, which asks it again")
  void questionKeptAndRetried() {
    failOnce();
    assertThat(page.locator("#input")).hasValue(QUESTION);
    assertThat(errorBox().getByRole(com.microsoft.playwright.options.AriaRole.BUTTON)).hasText("Retry");

    chat.gemini.next().answer("There are 406 cars.");
    errorBox().locator("button.retry").click();
    assertThat(page.locator(".message.assistant .content").last()).hasText("There are 406 cars.");
    assertThat(page.locator(".message.user")).hasText(new String[] {QUESTION, QUESTION});
    assertThat(page.locator("#input")).hasValue("");
  }

  @Test
  @DisplayName("after a reload the failed question shows with its error and Retry, not with no reply at all")
  void errorStoredWithTheConversation() {
    failOnce();
    ui.reload();
    assertThat(page.locator(".message.user")).hasText(QUESTION);
    assertThat(errorBox()).containsText(UNAVAILABLE);

    chat.gemini.next().answer("There are 406 cars.");
    errorBox().locator("button.retry").click();
    assertThat(page.locator(".message.assistant .content").last()).hasText("There are 406 cars.");
    ui.answered();
    ui.reload();
    assertThat(page.locator(".message.assistant")).hasCount(2);
    assertThat(errorBox()).hasCount(1);
    assertThat(page.locator(".message.assistant .content").last()).hasText("There are 406 cars.");
  }
}
