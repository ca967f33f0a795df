package io.quarry.app;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.microsoft.playwright.Playwright;
import com.microsoft.playwright.assertions.PlaywrightAssertions;
import io.quarry.testing.Chromium;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Debian's Chromium, driven by Playwright without any browser download: its headless shell where installed, the
 * whole browser otherwise. In CI the browser is mandatory (.ci/run installs it); elsewhere the browser tests skip,
 * saying why, when it is missing.
 */
final class Browsers {

  private static final double ASSERTION_WAIT_MS = 20_000;

  private Browsers() {
  }

  /** Playwright's driver, when this machine has the browser (launch it with {@link Chromium#launch}). */
  static Playwright playwright() {
    Path chromium = Chromium.EXECUTABLE;
    if (!Files.isExecutable(chromium)) {
      if ("true".equals(System.getenv("CI"))) {
        throw new IllegalStateException("Browser tests are mandatory in CI, but " + chromium + " is missing");
      }
      System.out.println("Skipping browser tests: no Chromium at " + chromium
          + " (apt-get install chromium-headless-shell)");
      assumeTrue(false, "no Chromium at " + chromium);
    }
    // How long an assertion waits for the page to come to what it expects: a bound on how long a failure takes to
    // show, not a timing asserted. Playwright's 5 s ran out on a slower host of two cores, busy with the other forks
    // (a first paint after navigating, a 201-column profile); the page came to the expected state every time.
    PlaywrightAssertions.setDefaultAssertionTimeout(ASSERTION_WAIT_MS);
    return Chromium.playwright();
  }
}
