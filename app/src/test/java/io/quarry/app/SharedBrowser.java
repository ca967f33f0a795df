package io.quarry.app;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.Playwright;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One Chromium per test JVM, for every browser test class (launching Playwright's driver and the browser costs more
 * than most tests); each test has a browser context of its own, so no cookie or storage passes from one to the next.
 * Closed when the JVM's tests end.
 */
final class SharedBrowser implements BeforeAllCallback {

  private static final ExtensionContext.Namespace HERE = ExtensionContext.Namespace.create(SharedBrowser.class);

  private static Playwright playwright;
  private static Browser browser;

  @Override
  public void beforeAll(ExtensionContext context) {
    context.getRoot().getStore(HERE).getOrComputeIfAbsent("browser",
        key -> (ExtensionContext.Store.CloseableResource) SharedBrowser::close);
  }

  static synchronized Browser get() {
    if (browser == null) {
      playwright = Browsers.playwright();
      browser = Browsers.launch(playwright);
    }
    return browser;
  }

  private static synchronized void close() {
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
