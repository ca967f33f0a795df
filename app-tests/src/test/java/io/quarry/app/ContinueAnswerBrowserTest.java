package io.quarry.app;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;

import com.microsoft.playwright.Locator;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * An answer cut off at the model's output limit shows Continue; clicking it streams the rest into the same answer,
 * whose notice and button then go, live and after a reload.
 */
class ContinueAnswerBrowserTest extends BrowserTestBase {

  /** Runs no SQL: a node without worker processes (nor their private cluster) starts in a fraction of the time. */
  @Override
  Map<String, String> env() {
    return Map.of("QUARRY_LOCAL_WORKERS", "0");
  }

  static final String CUT_OFF = "The answer was cut off at the model's output limit.";

  PageActions ui;

  @BeforeEach
  void open() {
    ui = new PageActions(page, chat, url());
    ui.open();
  }

  private Locator continueButton() {
    return page.locator(".message.assistant button.continue-answer");
  }

  @Test
  @DisplayName("Continue under a cut-off answer streams the rest into the same answer, and goes away")
  void continuesInPlace() {
    chat.gemini.next().text("The first of many ").text("points is").cutOff(30, 8192);
    ui.ask("Write a lot");
    assertThat(page.locator(".message.assistant .status-note")).hasText(CUT_OFF);
    assertThat(continueButton()).hasText("Continue");
    ui.answered();

    chat.gemini.next().text(" that the rest").gate("rest").text(" follows.").usage(40, 5);
    continueButton().click();
    assertThat(continueButton()).hasCount(0);
    assertThat(page.locator(".message.assistant .content")).hasText("The first of many points is that the rest");
    assertThat(page.locator("#stop")).isVisible();
    chat.gemini.release("rest");
    ui.answered();
    assertThat(page.locator(".message.assistant")).hasCount(1);
    assertThat(page.locator(".message.assistant .content")).hasText("The first of many points is that the rest follows.");
    assertThat(page.locator(".message.assistant .status-note")).hasCount(0);
    assertThat(continueButton()).hasCount(0);

    ui.reload();
    assertThat(page.locator(".message.assistant")).hasCount(1);
    assertThat(page.locator(".message.assistant .content")).hasText("The first of many points is that the rest follows.");
    assertThat(continueButton()).hasCount(0);
  }

  @Test
  @DisplayName("after a reload a cut-off answer still shows Continue; a new question takes it away")
  void storedCutOff() {
    chat.gemini.next().text("Half an ").cutOff(30, 8192);
    ui.ask("Write a lot");
    ui.answered();
    ui.reload();
    assertThat(page.locator(".message.assistant .status-note")).hasText(CUT_OFF);
    assertThat(continueButton()).hasCount(1);

    chat.gemini.next().answer("Something else.");
    ui.ask("Another question");
    assertThat(continueButton()).hasCount(0);
    ui.answered();
  }
}
