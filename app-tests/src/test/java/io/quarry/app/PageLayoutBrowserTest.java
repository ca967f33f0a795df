package io.quarry.app;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.Locator;
import com.microsoft.playwright.options.BoundingBox;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Where things stand on the page and what it tells assistive technology, in local mode. */
class PageLayoutBrowserTest extends BrowserTestBase {

  /**
   * Runs no SQL but where a dataset is added: elsewhere a node without worker processes (nor their private cluster)
   * starts in a fraction of the time.
   */
  @Override
  Map<String, String> env() {
    boolean dataset = test.getTestMethod().map(m -> m.getName().equals("emptyConversationWithDataset")).orElse(false);
    return dataset ? Map.of() : Map.of("QUARRY_LOCAL_WORKERS", "0");
  }

  static final int VIEWPORT_HEIGHT = 900;

  @BeforeEach
  void open() {
    page.navigate(url());
    assertThat(page.locator("body")).hasAttribute("data-ready", "true");
    assertThat(page.locator("#connection-text")).hasText("Connected");
  }

  private void ask(String question) {
    page.locator("#input").fill(question);
    page.locator("#input").press("Enter");
  }

  private void assertInputAtTheBottom() {
    BoundingBox composer = page.locator("#composer").boundingBox();
    assertThat(composer.y + composer.height).as("the input's lower edge").isGreaterThan(VIEWPORT_HEIGHT - 2);
  }

  @Test
  @DisplayName("an empty conversation with a dataset keeps the input at the bottom and says the table is ready, "
      + "before and after a reload")
  void emptyConversationWithDataset() {
    assertInputAtTheBottom();
    page.getByText("Try sample data: Cars").click();
    assertThat(page.locator(".dataset-card .open")).hasText("table1 [406 × 9]");
    assertThat(page.locator("#onboarding")).containsText("table1 is ready");
    assertInputAtTheBottom();
    page.reload();
    assertThat(page.locator("body")).hasAttribute("data-ready", "true");
    assertThat(page.locator("#onboarding")).containsText("table1 is ready");
    assertInputAtTheBottom();
  }

  @Test
  @DisplayName("while an answer streams, the view follows it only while it is scrolled to the end")
  void streamingFollowsOnlyAtTheEnd() {
    StringBuilder longText = new StringBuilder();
    for (int i = 1; i <= 80; i++) {
      longText.append("Paragraph ").append(i).append(" of the answer.\n\n");
    }
    chat.gemini.next().text(longText.toString()).gate("more").text("More text arrives. ").gate("end")
        .text("The end.").usage(100, 10);
    ask("Tell me a lot");
    Locator answer = page.locator(".message.assistant .content");
    assertThat(answer).containsText("Paragraph 80 of the answer.");
    page.waitForFunction("() => { const m = document.getElementById('messages');"
        + " return m.scrollHeight > m.clientHeight * 2 && m.scrollTop + m.clientHeight >= m.scrollHeight - 2; }");

    page.locator("#messages").hover();
    page.mouse().wheel(0, -100_000);
    page.waitForFunction("() => document.getElementById('messages').scrollTop === 0");
    chat.gemini.release("more");
    assertThat(answer).containsText("More text arrives.");
    assertThat(page.evaluate("document.getElementById('messages').scrollTop")).as("where the reader stopped")
        .isEqualTo(0);

    page.mouse().wheel(0, 100_000);
    page.waitForFunction("() => { const m = document.getElementById('messages');"
        + " return m.scrollTop + m.clientHeight >= m.scrollHeight - 2; }");
    chat.gemini.release("end");
    assertThat(answer).containsText("The end.");
    assertThat(page.locator(".message.assistant .content.cursor")).hasCount(0);
    assertThat(((Number) page.evaluate("(() => { const m = document.getElementById('messages');"
        + " return m.scrollHeight - m.scrollTop - m.clientHeight; })()")).doubleValue()).as("distance from the end")
        .isLessThanOrEqualTo(1);
  }

  @Test
  @DisplayName("the message list is not a live region: a finished answer is announced once, not its tokens")
  void finishedAnswerAnnounced() {
    assertThat(page.evaluate("document.getElementById('messages').getAttribute('aria-live')")).isNull();
    chat.gemini.next().text("Counting ").gate("rest").text("done: 406 cars.").usage(100, 5);
    ask("Count the cars");
    assertThat(page.locator(".message.assistant .content")).containsText("Counting");
    assertThat(page.locator("#announcer")).hasAttribute("aria-live", "polite");
    assertThat(page.locator("#announcer")).not().containsText("Counting");
    chat.gemini.release("rest");
    assertThat(page.locator("#announcer")).hasText("Answer: Counting done: 406 cars.");
  }

  @Test
  @DisplayName("links in answers open in a new tab with rel=noopener")
  void linksOpenInANewTab() {
    chat.gemini.next().answer("See [the source](https://example.com/data) for more.");
    ask("Where is it from?");
    Locator link = page.locator(".message.assistant .content a", new com.microsoft.playwright.Page.LocatorOptions()
        .setHasText("the source"));
    assertThat(link).hasAttribute("target", "_blank");
    assertThat(link).hasAttribute("rel", java.util.regex.Pattern.compile("(^|\\s)noopener(\\s|$)"));
  }

  @Test
  @DisplayName("in local mode there is no 'Sign out' (nobody signs in)")
  void noSignOutInLocalMode() {
    assertThat(page.locator("#signout")).isHidden();
    assertThat(page.locator("#account")).isHidden();
  }

  /**
   * The input is focused once the click is handled (a conversation made and shown, or an empty one reused), so
   * what the list shows then is the click's outcome.
   */
  private void clickNewConversation() {
    page.locator("#theme").focus();
    page.locator("#new-conversation").click();
    assertThat(page.locator("#input")).isFocused();
  }

  @Test
  @DisplayName("'New conversation' reuses an empty conversation instead of adding another")
  void newConversationReusesAnEmptyOne() {
    Locator conversations = page.locator("#conversation-list li");
    assertThat(conversations).hasCount(1);
    clickNewConversation();
    clickNewConversation();
    assertThat(conversations).hasCount(1);

    chat.gemini.next().answer("Hello there.");
    ask("Hello");
    assertThat(page.locator(".message.assistant .content")).hasText("Hello there.");
    assertThat(page.locator(".message.assistant .content.cursor")).hasCount(0);
    clickNewConversation();
    assertThat(conversations).hasCount(2);
    assertThat(page.locator(".message")).hasCount(0);
    clickNewConversation();
    assertThat(conversations).hasCount(2);

    conversations.nth(1).locator(".select").click();
    assertThat(page.locator(".message.assistant .content")).hasText("Hello there.");
    clickNewConversation();
    assertThat(page.locator(".message")).hasCount(0);
    assertThat(conversations).hasCount(2);
    assertThat(conversations.first()).hasClass(java.util.regex.Pattern.compile("active"));
  }
}
