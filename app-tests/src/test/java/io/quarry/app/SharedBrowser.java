package io.quarry.app;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.Playwright;
import io.quarry.testing.Chromium;

/**
 * One Chromium per test JVM, for every browser test class (launching Playwright's driver and the browser costs more
 * than most tests); each test has a browser context of its own, so no cookie or storage passes from one to the next.
 * Closed when the JVM's tests end ({@link ForkEnd}).
 */
final class SharedBrowser {

  private static Playwright playwright;
  private static Browser browser;

  private SharedBrowser() {
  }

  static synchronized Browser get() {
    if (browser == null) {
      playwright = Browsers.playwright();
      browser = Chromium.launch(playwright);
    }
    return browser;
  }

  static synchronized void close() {
    if (browser != null) {
      browser.close();
      browser = null;
    }
    if (playwright != null) {
      playwright.close();
      playwright = null;
    }
  }
}
