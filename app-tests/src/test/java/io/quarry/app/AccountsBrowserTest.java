package io.quarry.app;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;

import io.quarry.bus.StorageClient;
import io.quarry.bus.TokenUsage;
import io.quarry.bus.Timestamps;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** auth.mode=password in the browser: sign up with an invite, sign out, sign in; the daily limit banner. */
class AccountsBrowserTest extends BrowserTestBase {

  /** Runs no SQL: a node without worker processes (nor their private cluster) starts in a fraction of the time. */
  @Override
  Map<String, String> env() {
    return Map.of("QUARRY_LOCAL_WORKERS", "0", "QUARRY_AUTH_MODE", "password", "QUARRY_TOKEN_LIMIT", "1000");
  }

  @BeforeEach
  void open() {
    page.navigate(url());
  }

  private void signUp(String email) {
    String invite = InviteCommand.run(TestNodes.env(dir), "invite", "create", "--config",
        dir.resolve("absent-config.json").toString()).await();
    page.locator("#show-signup").click();
    page.locator("#signup-email").fill(email);
    page.getByLabel("Password (at least 8 characters)").fill("long enough");
    page.getByLabel("Invite", new com.microsoft.playwright.Page.GetByLabelOptions().setExact(true)).fill(invite);
    page.locator("#signup-form button[type=submit]").click();
    assertThat(page.locator("body")).hasAttribute("data-ready", "true");
  }

  @Test
  @DisplayName("sign up with an invite, sign out, and sign in again")
  void signUpOutIn() {
    assertThat(page.locator("#signin-form")).isVisible();
    page.locator("#show-signup").click();
    page.locator("#signup-email").fill("gina@example.com");
    page.getByLabel("Password (at least 8 characters)").fill("long enough");
    page.locator("#signup-form button[type=submit]").click();
    assertThat(page.locator("#signup-error")).hasText("An invite is required for new accounts");
    page.locator("#show-signin").click();
    signUp("gina@example.com");
    assertThat(page.locator("#account-email")).hasText("gina@example.com");
    page.locator("#signout").click();
    assertThat(page.locator("#signin-form")).isVisible();
    page.locator("#signin-email").fill("gina@example.com");
    page.locator("#signin-password").fill("wrong password");
    page.locator("#signin-form button[type=submit]").click();
    assertThat(page.locator("#signin-error")).hasText("Invalid email or password");
    page.locator("#signin-password").fill("long enough");
    page.locator("#signin-form button[type=submit]").click();
    assertThat(page.locator("#account-email")).hasText("gina@example.com");
  }

  @Test
  @DisplayName("at the daily limit the page says 'Daily limit reached' and the input is disabled")
  void limitBanner() {
    signUp("hal@example.com");
    String userId = page.evaluate("fetch('/api/me').then(r => r.json()).then(me => me.id)").toString();
    new StorageClient(chat.node.vertx()).recordUsage(new TokenUsage(userId, null, "gemini-2.5-flash", 1000, 0,
        Timestamps.format(Instant.now().minusSeconds(3600)))).await();
    page.reload();
    assertThat(page.locator("#banner")).containsText("Daily limit reached");
    assertThat(page.locator("#input")).isDisabled();
    assertThat(page.locator("#usage-text")).hasText("100% of 1,000");
  }
}
