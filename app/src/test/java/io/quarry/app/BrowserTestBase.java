package io.quarry.app;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.Playwright;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** One Chromium for all tests of a class: launching it costs more than a test. */
abstract class BrowserTestBase {

  static Playwright playwright;
  static Browser browser;

  @BeforeAll
  static void launch() {
    playwright = Browsers.playwright();
    browser = Browsers.launch(playwright);
  }

  @AfterAll
  static void close() {
    if (browser != null) {
      browser.close();
    }
    if (playwright != null) {
      playwright.close();
    }
  }
}
