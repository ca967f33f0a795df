package io.quarry.app;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** auth.mode=password: a conversation's address survives signing in, and is nobody else's. */
class AddressSignInBrowserTest extends BrowserTestBase {

  /** Runs no SQL: a node without worker processes (nor their private cluster) starts in a fraction of the time. */
  @Override
  Map<String, String> env() {
    return Map.of("QUARRY_LOCAL_WORKERS", "0", "QUARRY_AUTH_MODE", "password");
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
  @DisplayName("signed out at /c/<id>, the page asks to sign in and, signed in, opens that conversation at that address;"
      + " another account at that address is told 'Conversation not found'")
  void signInKeepsTheAddress() {
    page.navigate(url());
    signUp("ann@example.com");
    assertThat(page.locator("#conversation-list li.active")).hasCount(1);
    String id = page.locator("#conversation-list li.active").getAttribute("data-id");
    String address = url() + "c/" + id;
    assertThat(page).hasURL(address);

    page.locator("#signout").click();
    assertThat(page.locator("#signin-form")).isVisible();
    page.navigate(address);
    assertThat(page.locator("#signin-form")).isVisible();
    page.locator("#signin-email").fill("ann@example.com");
    page.locator("#signin-password").fill("long enough");
    page.locator("#signin-form button[type=submit]").click();
    assertThat(page.locator("body")).hasAttribute("data-ready", "true");
    assertThat(page).hasURL(address);
    assertThat(page.locator("#conversation-list li.active")).hasAttribute("data-id", id);

    page.locator("#signout").click();
    assertThat(page.locator("#signin-form")).isVisible();
    signUp("bob@example.com");
    page.navigate(address);
    assertThat(page.locator("body")).hasAttribute("data-ready", "true");
    assertThat(page.locator(".not-found")).containsText("Conversation not found");
    assertThat(page.locator("#conversation-list li")).hasCount(1);
  }

  @Test
  @DisplayName("issue 49 (4c): signing out leaves the conversation's address, so whoever signs up (or in) next on this"
      + " browser starts at their own start page, not at 'Conversation not found' for the last person's conversation")
  void nextUserStartsAtTheirOwnStart() {
    page.navigate(url());
    signUp("cat@example.com");
    String catsId = page.locator("#conversation-list li.active").getAttribute("data-id");
    assertThat(page).hasURL(url() + "c/" + catsId);

    page.locator("#signout").click();
    assertThat(page.locator("#signin-form")).isVisible();
    assertThat(page).hasURL(url());
    signUp("dan@example.com");
    assertThat(page.locator(".not-found")).hasCount(0);
    assertThat(page.locator("#conversation-list li.active")).hasCount(1);
    String dansId = page.locator("#conversation-list li.active").getAttribute("data-id");
    org.assertj.core.api.Assertions.assertThat(dansId).isNotEqualTo(catsId);
    assertThat(page).hasURL(url() + "c/" + dansId);
    assertThat(page.locator("#input")).isEnabled();

    page.locator("#signout").click();
    assertThat(page.locator("#signin-form")).isVisible();
    page.locator("#signin-email").fill("cat@example.com");
    page.locator("#signin-password").fill("long enough");
    page.locator("#signin-form button[type=submit]").click();
    assertThat(page.locator("body")).hasAttribute("data-ready", "true");
    assertThat(page.locator(".not-found")).hasCount(0);
    assertThat(page.locator("#conversation-list li.active")).hasAttribute("data-id", catsId);
  }
}
