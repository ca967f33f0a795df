package io.quarry.app;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Playwright;
import com.microsoft.playwright.assertions.PlaywrightAssertions;
import io.quarry.testing.Chromium;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Debian's Chromium, driven by Playwright without any browser download: its headless shell where installed, the
 * whole browser otherwise. In CI the browser is mandatory (.ci/run installs it); elsewhere the browser tests skip,
 * saying why, when it is missing.
 */
final class Browsers {

  static final Path CHROMIUM = Chromium.EXECUTABLE;

  private static final double ASSERTION_WAIT_MS = 20_000;

  private Browsers() {
  }

  static Playwright playwright() {
    if (!Files.isExecutable(CHROMIUM)) {
      if ("true".equals(System.getenv("CI"))) {
        throw new IllegalStateException("Browser tests are mandatory in CI, but " + CHROMIUM + " is missing");
      }
      System.out.println("Skipping browser tests: no Chromium at " + CHROMIUM + " (apt-get install chromium-headless-shell)");
      assumeTrue(false, "no Chromium at " + CHROMIUM);
    }
    // How long an assertion waits for the page to come to what it expects: a bound on how long a failure takes to
    // show, not a timing asserted. Playwright's 5 s ran out on a slower host of two cores, busy with the other forks
    // (a first paint after navigating, a 201-column profile); the page came to the expected state every time.
    PlaywrightAssertions.setDefaultAssertionTimeout(ASSERTION_WAIT_MS);
    return Playwright.create(new Playwright.CreateOptions().setEnv(Map.of("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")));
  }

  static Browser launch(Playwright playwright) {
    return playwright.chromium().launch(new BrowserType.LaunchOptions()
        .setExecutablePath(CHROMIUM)
        .setHeadless(true)
        .setArgs(Chromium.ARGS));
  }
}
