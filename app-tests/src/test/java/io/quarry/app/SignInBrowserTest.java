package io.quarry.app;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The sign-in page of auth.mode=password shows one form at a time, in the words the invite command uses. */
class SignInBrowserTest extends BrowserTestBase {

  /** Runs no SQL: a node without worker processes (nor their private cluster) starts in a fraction of the time. */
  @Override
  Map<String, String> env() {
    return Map.of("QUARRY_LOCAL_WORKERS", "0", "QUARRY_AUTH_MODE", "password");
  }

  @Test
  @DisplayName("sign-in and sign-up forms show one at a time; 'Create an account' and 'Sign in' switch between them; "
      + "the sign-up form asks for an invite")
  void oneFormAtATime() {
    page.navigate(url());
    assertThat(page.locator("#signin-form")).isVisible();
    assertThat(page.locator("#signup-form")).isHidden();

    page.getByRole(com.microsoft.playwright.options.AriaRole.BUTTON,
        new com.microsoft.playwright.Page.GetByRoleOptions().setName("Create an account")).click();
    assertThat(page.locator("#signup-form")).isVisible();
    assertThat(page.locator("#signin-form")).isHidden();
    assertThat(page.getByLabel("Invite", new com.microsoft.playwright.Page.GetByLabelOptions().setExact(true)))
        .isVisible();
    assertThat(page.locator("#signup-form")).not().containsText("Referral");

    page.locator("#show-signin").click();
    assertThat(page.locator("#signin-form")).isVisible();
    assertThat(page.locator("#signup-form")).isHidden();
  }
}
