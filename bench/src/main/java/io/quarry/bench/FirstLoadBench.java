package io.quarry.bench;

import com.google.gson.JsonObject;
import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.CDPSession;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import com.microsoft.playwright.Route;
import io.quarry.app.Node;
import io.quarry.testing.Chromium;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A first visit to the main page, as a new user (a browser context of its own, nothing cached) has it: the page the jar
 * serves, its modules bundled into one script, against the same page loading the modules themselves (its baseline, in
 * the same run: the entry module's source, {@code webroot/js/app.js}, answered in place of the bundle, whose imports
 * the node serves as they are in the jar). Chromium's CPU a load (every process of the browser this JVM started, with
 * the renderers it has reaped) and the time to a page ready and connected, on loopback and with 100 ms added to each
 * round trip (Chromium's own network emulation). The suite's Chromium ({@link Chromium}), a node without worker
 * processes in this JVM.
 */
public final class FirstLoadBench {

  private static final int WARM_UP = 3;
  private static final int ROUNDS = 4;
  private static final int LOADS = 5;
  private static final int[] LATENCIES_MS = {0, 100};

  private record Cost(double chromiumMs, double wallMs) {
  }

  private FirstLoadBench() {
  }

  public static void main(String[] args) throws Exception {
    byte[] modules = Files.readAllBytes(Path.of("webroot/js/app.js"));
    Node node = LocalNode.start(Scratch.dir("quarry-first-load"), Map.of("QUARRY_LOCAL_WORKERS", "0"));
    String url = "http://127.0.0.1:" + node.httpPort() + "/";
    try (Playwright playwright = Chromium.playwright(); Browser browser = Chromium.launch(playwright)) {
      byte[] bundle = playwright.request().newContext().get(url + "js/app.js").body();
      if (new String(bundle, java.nio.charset.StandardCharsets.UTF_8).lines().anyMatch(l -> l.startsWith("import "))) {
        throw new IllegalStateException("this build serves the modules unbundled (no esbuild for its platform)");
      }
      for (int latency : LATENCIES_MS) {
        for (int i = 0; i < WARM_UP; i++) {
          load(browser, url, bundle, latency);
          load(browser, url, modules, latency);
        }
        List<Cost> bundled = new ArrayList<>();
        List<Cost> unbundled = new ArrayList<>();
        for (int round = 0; round < ROUNDS; round++) {
          bundled.add(loads(browser, url, bundle, latency));
          unbundled.add(loads(browser, url, modules, latency));
        }
        report(latency, "the bundle (the jar's page)", bundled);
        report(latency, "the modules (the baseline)", unbundled);
        System.out.printf(Locale.ROOT, "%d ms added: bundle / modules: Chromium %.2fx, to ready %.2fx%n", latency,
            median(bundled, true) / median(unbundled, true), median(bundled, false) / median(unbundled, false));
      }
    } finally {
      node.stop().await();
    }
  }

  /** {@link #LOADS} first loads, per load. */
  private static Cost loads(Browser browser, String url, byte[] entry, int latency) {
    long chromium0 = ChromiumCpu.nanos();
    double wall = 0;
    for (int i = 0; i < LOADS; i++) {
      wall += load(browser, url, entry, latency);
    }
    return new Cost((ChromiumCpu.nanos() - chromium0) / 1e6 / LOADS, wall / LOADS);
  }

  /** One first load in a new context, the entry script answered with {@code entry}; ms to ready and connected. */
  private static double load(Browser browser, String url, byte[] entry, int latency) {
    BrowserContext context = browser.newContext(new Browser.NewContextOptions().setViewportSize(1400, 900));
    try {
      Page page = context.newPage();
      page.route("**/js/app.js", route -> fulfil(route, entry));
      if (latency > 0) {
        CDPSession cdp = context.newCDPSession(page);
        cdp.send("Network.enable");
        JsonObject conditions = new JsonObject();
        conditions.addProperty("offline", false);
        conditions.addProperty("latency", latency);
        conditions.addProperty("downloadThroughput", -1);
        conditions.addProperty("uploadThroughput", -1);
        cdp.send("Network.emulateNetworkConditions", conditions);
      }
      long start = System.nanoTime();
      page.navigate(url);
      page.waitForSelector("body[data-ready='true']");
      page.waitForFunction("() => document.querySelector('#connection-text')?.textContent === 'Connected'");
      return (System.nanoTime() - start) / 1e6;
    } finally {
      context.close();
    }
  }

  private static void fulfil(Route route, byte[] entry) {
    route.fulfill(new Route.FulfillOptions().setStatus(200).setContentType("text/javascript; charset=utf-8")
        .setBodyBytes(entry));
  }

  private static void report(int latency, String label, List<Cost> costs) {
    System.out.printf(Locale.ROOT, "%d ms added, %s, medians of %d rounds of %d first loads: Chromium %.0f ms of CPU a"
        + " load, %.0f ms to ready and connected%n", latency, label, costs.size(), LOADS, median(costs, true),
        median(costs, false));
  }

  private static double median(List<Cost> costs, boolean chromium) {
    return LoadStats.median(costs.stream().map(c -> chromium ? c.chromiumMs() : c.wallMs()).toList());
  }
}
