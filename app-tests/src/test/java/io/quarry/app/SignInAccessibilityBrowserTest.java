package io.quarry.app;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Issue 20, part 6: the sign-in page of auth.mode=password has no serious or critical axe-core violation. */
class SignInAccessibilityBrowserTest extends BrowserTestBase {

  /** Runs no SQL: a node without worker processes (nor their private cluster) starts in a fraction of the time. */
  @Override
  Map<String, String> env() {
    return Map.of("QUARRY_LOCAL_WORKERS", "0", "QUARRY_AUTH_MODE", "password");
  }

  @Test
  @DisplayName("A11Y-6: axe finds no serious or critical violation on the sign-in form, the sign-up form, and the "
      + "sign-in form showing a failed sign-in")
  void signInPage() {
    page.navigate(url());
    assertThat(page.locator("#signin-form")).isVisible();
    Axe.assertNoGraveViolation(page, "sign-in");

    page.locator("#signin-email").fill("nobody@example.com");
    page.locator("#signin-password").fill("not the password");
    page.locator("#signin-password").press("Enter");
    assertThat(page.locator("#signin-error")).not().isEmpty();
    Axe.assertNoGraveViolation(page, "sign-in, failed");

    page.locator("#show-signup").click();
    assertThat(page.locator("#signup-form")).isVisible();
    Axe.assertNoGraveViolation(page, "sign-up");
  }
}
