package io.quarry.app;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;

import com.microsoft.playwright.assertions.LocatorAssertions;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The server out of reach: a question is never lost, and the page keeps reconnecting on its own. The page's
 * clock is Playwright's, so that the backoff's minutes pass at once.
 */
class ConnectionBrowserTest extends BrowserTestBase {

  /** Runs no SQL: a node without worker processes (nor their private cluster) starts in a fraction of the time. */
  @Override
  Map<String, String> env() {
    return Map.of("QUARRY_LOCAL_WORKERS", "0");
  }

  /** A node starting again may take a while on a busy machine. */
  static final LocatorAssertions.HasTextOptions RESTART = new LocatorAssertions.HasTextOptions().setTimeout(30_000);

  private void openApp() {
    page.navigate(url());
    assertThat(page.locator("body")).hasAttribute("data-ready", "true");
    assertThat(page.locator("#connection-text")).hasText("Connected");
  }

  @Test
  @DisplayName("a question sent while Quarry cannot be reached stays in the input, the page says so in plain words, "
      + "and offers to send it again once the connection is back")
  void questionKeptWhileUnreachable() {
    openApp();
    chat.stopNode();
    page.locator("#input").fill("How many people are there?");
    page.locator("#input").press("Enter");
    assertThat(page.locator("#input")).hasValue("How many people are there?");
    assertThat(page.locator("#send-failed")).containsText("Quarry cannot be reached, so your question was not sent");
    assertThat(page.locator("#messages")).not().containsText("Failed to fetch");
    assertThat(page.locator(".message.user")).hasCount(0);

    chat.restartNode();
    assertThat(page.locator("#connection-text")).hasText("Connected", RESTART);
    assertThat(page.locator("#send-failed")).containsText("The connection is back");
    chat.gemini.next().answer("There are 100 people.");
    page.getByText("Send again").click();
    assertThat(page.locator(".message.assistant .content")).hasText("There are 100 people.");
    assertThat(page.locator(".message.user")).hasText("How many people are there?");
    assertThat(page.locator("#input")).hasValue("");
    assertThat(page.locator("#send-failed")).isHidden();
  }

  @Test
  @DisplayName("after five failed attempts (1, 2, 4, 8, 16 s) the page says 'Connection lost' and keeps trying every "
      + "30 s by itself; it tries at once when the browser comes back online")
  void reconnectionKeepsTrying() {
    page.clock().install();
    openApp();
    page.clock().pauseAt(((Number) page.evaluate("Date.now() + 1000")).longValue());

    goOffline();
    chat.restartNode();
    page.clock().runFor(30_000);
    assertThat(page.locator("#connection-text")).hasText("Connected", RESTART);
    assertThat(page.locator("#connection-lost")).isHidden();

    goOffline();
    chat.restartNode();
    // The browser's network goes and comes back (its offline and online events): the page tries at once, without
    // waiting for the 30 s.
    context.setOffline(true);
    context.setOffline(false);
    assertThat(page.locator("#connection-text")).hasText("Connected", RESTART);
  }

  @Test
  @DisplayName("after the server restarts the page reconnects and shows the conversation again")
  void reconnect() {
    openApp();
    chat.gemini.next().answer("Before the restart.");
    page.locator("#input").fill("Hello");
    page.locator("#input").press("Enter");
    assertThat(page.locator(".message.assistant .content")).hasText("Before the restart.");
    // The cursor goes with chat_complete, which is sent once the answer is stored: only then restart.
    assertThat(page.locator(".message.assistant .content.cursor")).hasCount(0);
    chat.stopNode();
    assertThat(page.locator("#connection-text")).not().hasText("Connected");
    chat.restartNode();
    assertThat(page.locator("#connection-text")).hasText("Connected", RESTART);
    assertThat(page.locator(".message.assistant .content")).hasText("Before the restart.");
  }

  /** Stops the server and lets the backoff run out: five attempts fail, then the page says the connection is lost. */
  private void goOffline() {
    chat.stopNode();
    for (int seconds : new int[] {1, 2, 4, 8, 16}) {
      assertThat(page.locator("#connection-text")).hasText("Reconnecting in " + seconds + " s…");
      page.clock().runFor(seconds * 1000L);
    }
    assertThat(page.locator("#connection-text")).hasText("Connection lost");
    assertThat(page.locator("#connection-lost")).containsText("next attempt in 30 s");
  }
}
