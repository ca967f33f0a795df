package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.Response;
import io.quarry.testing.UiBundle;
import java.io.InputStream;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The UI's scripts and styles in Chromium's cache: a reload asks whether each is current and moves no body again. */
class AssetCachingBrowserTest extends BrowserTestBase {

  @Override
  boolean sharesNode() {
    return true;
  }

  @Test
  @DisplayName("the first load fetches the page's script (one bundle, where the build bundles the UI's modules) and its"
      + " style sheets (200); a reload asks for every one again and each answer is 304, without its body")
  void reloadRevalidates() throws Exception {
    PageActions ui = new PageActions(page, chat, url());
    Map<String, Integer> first = statuses(ui::open);
    if (bundled()) {
      assertThat(first).as("the first load").containsOnlyKeys("/js/app.js", "/css/app.css", "/css/results.css");
    } else {
      assertThat(first).as("the first load").containsKeys("/js/app.js", "/js/socket.js", "/css/app.css")
          .hasSizeGreaterThan(50);
    }
    assertThat(first.values()).as("the first load").containsOnly(200);

    Map<String, Integer> again = statuses(ui::reload);
    assertThat(again.keySet()).as("what the reload asked for").isEqualTo(first.keySet());
    assertThat(again.values()).as("what the reload was answered").containsOnly(304);
  }

  /** Whether the node serves the main page's modules bundled into its entry ({@link UiBundle}). */
  private static boolean bundled() throws Exception {
    try (InputStream in = AssetCachingBrowserTest.class.getClassLoader().getResourceAsStream("webroot/js/app.js")) {
      return UiBundle.bundled(in.readAllBytes());
    }
  }

  /** The status of each script and style sheet answered while {@code load} runs, by path. */
  private Map<String, Integer> statuses(Runnable load) {
    Map<String, Integer> seen = new LinkedHashMap<>();
    Consumer<Response> listener = response -> {
      String path = URI.create(response.url()).getPath();
      if (path.startsWith("/js/") || path.startsWith("/css/")) {
        seen.put(path, response.status());
      }
    };
    page.onResponse(listener);
    try {
      load.run();
    } finally {
      page.offResponse(listener);
    }
    return seen;
  }
}
