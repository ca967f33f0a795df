package io.quarry.app;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Page;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * One Chromium for every browser test of the JVM ({@link SharedBrowser}); per test, a node wired to the fake Gemini and
 * a fresh browser context and page. A class whose tests need nothing of a node but their conversations shares one
 * ({@link #sharesNode}, {@link SharedNodes}): starting one with its worker process costs more than most tests.
 */
abstract class BrowserTestBase {

  static final String LOCALE = "en-US";

  Browser browser;

  @TempDir
  Path dir;

  /** The running test (for {@link #env()} when a class's tests need different nodes). */
  TestInfo test;
  ChatHarness chat;
  BrowserContext context;
  Page page;

  /** Extra environment for the node. */
  Map<String, String> env() {
    return Map.of();
  }

  /**
   * Whether the class's tests share one node, each starting with no conversation, a fake Gemini without scripts and
   * files at addresses no cache has seen (see {@link ChatHarness#reset}). Not for tests that stop or restart their
   * node, or count what a node did since it started.
   */
  boolean sharesNode() {
    return false;
  }

  @BeforeEach
  void openPage(TestInfo test) {
    this.test = test;
    browser = SharedBrowser.get();
    chat = sharesNode() ? SharedNodes.get(nodeEnv()) : new ChatHarness(dir, nodeEnv());
    // Tables group numbers as the browser's locale does: tests expect en-US, whatever the machine's.
    context = browser.newContext(new Browser.NewContextOptions().setViewportSize(1400, 900).setLocale(LOCALE));
    page = context.newPage();
  }

  private Map<String, String> nodeEnv() {
    return SharedNodes.oneWorker(env());
  }

  @AfterAll
  static void closeNodesOfOtherSettings() {
    SharedNodes.classEnded();
  }

  @AfterEach
  void closePage() {
    context.close();
    if (!sharesNode()) {
      chat.close();
    }
  }

  String url() {
    return "http://127.0.0.1:" + chat.node.httpPort() + "/";
  }
}
