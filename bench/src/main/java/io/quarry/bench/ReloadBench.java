package io.quarry.bench;

import com.google.gson.JsonObject;
import com.microsoft.playwright.Browser;
import com.microsoft.playwright.CDPSession;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import com.microsoft.playwright.Response;
import io.quarry.app.Node;
import io.quarry.testing.Chromium;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/**
 * What a reload of the main page costs with the browser's cache on, as a returning user has it, against the same
 * reloads with the cache off (its baseline, in the same run): Chromium's CPU (every process of the browser this JVM
 * started), this JVM's (the node and Playwright's client), the time to a page ready and connected, and how one reload's
 * requests were answered (200 with a body, 304 without). The suite's Chromium ({@link Chromium}), on loopback, a node
 * without worker processes in this JVM.
 */
public final class ReloadBench {

  private static final int WARM_UP = 5;
  private static final int ROUNDS = 6;
  private static final int PER_ROUND = 10;

  private record Cost(double chromiumMs, double jvmMs, double wallMs) {
  }

  private ReloadBench() {
  }

  public static void main(String[] args) throws Exception {
    Path dir = Files.createTempDirectory("quarry-reload-bench");
    Node node = LocalNode.start(dir, Map.of("QUARRY_LOCAL_WORKERS", "0"));
    try (Playwright playwright = Chromium.playwright(); Browser browser = Chromium.launch(playwright)) {
      Page page = browser.newContext().newPage();
      String url = "http://127.0.0.1:" + node.httpPort() + "/";
      page.navigate(url);
      ready(page);
      CDPSession cdp = page.context().newCDPSession(page);
      for (int i = 0; i < WARM_UP; i++) {
        reload(page);
      }
      List<Cost> on = new ArrayList<>();
      List<Cost> off = new ArrayList<>();
      for (int round = 0; round < ROUNDS; round++) {
        on.add(reloads(page, cdp, false));
        off.add(reloads(page, cdp, true));
      }
      report("cache on (a returning user)", on, statuses(page, cdp, false));
      report("cache off (the baseline)", off, statuses(page, cdp, true));
      System.out.printf(Locale.ROOT, "cache on / off: Chromium %.2fx, this JVM %.2fx, wall %.2fx%n",
          median(on, Cost::chromiumMs) / median(off, Cost::chromiumMs), median(on, Cost::jvmMs) / median(off,
              Cost::jvmMs), median(on, Cost::wallMs) / median(off, Cost::wallMs));
    } finally {
      node.stop().await();
    }
  }

  private static void ready(Page page) {
    page.waitForSelector("body[data-ready='true']");
    page.waitForFunction("() => document.querySelector('#connection-text')?.textContent === 'Connected'");
  }

  private static void reload(Page page) {
    page.reload();
    ready(page);
  }

  private static void cache(CDPSession cdp, boolean disabled) {
    JsonObject params = new JsonObject();
    params.addProperty("cacheDisabled", disabled);
    cdp.send("Network.setCacheDisabled", params);
  }

  /** {@link #PER_ROUND} reloads, per reload. */
  private static Cost reloads(Page page, CDPSession cdp, boolean cacheOff) {
    cache(cdp, cacheOff);
    long chromium0 = ProcessCpu.chromium();
    long jvm0 = ProcessCpu.self();
    long wall0 = System.nanoTime();
    for (int i = 0; i < PER_ROUND; i++) {
      reload(page);
    }
    return new Cost((ProcessCpu.chromium() - chromium0) / 1e6 / PER_ROUND,
        (ProcessCpu.self() - jvm0) / 1e6 / PER_ROUND, (System.nanoTime() - wall0) / 1e6 / PER_ROUND);
  }

  /** How one reload's responses were answered: their count by status, such as {200=4, 304=57}. */
  private static Map<Integer, Long> statuses(Page page, CDPSession cdp, boolean cacheOff) {
    cache(cdp, cacheOff);
    List<Response> answered = new ArrayList<>();
    Consumer<Response> listener = answered::add;
    page.onResponse(listener);
    reload(page);
    page.offResponse(listener);
    return answered.stream().collect(Collectors.groupingBy(Response::status, TreeMap::new, Collectors.counting()));
  }

  private static void report(String label, List<Cost> costs, Map<Integer, Long> statuses) {
    System.out.printf(Locale.ROOT, "%s, medians of %d rounds of %d reloads: Chromium %.0f ms of CPU a reload, this JVM"
            + " %.1f ms, %.0f ms to ready and connected; a reload's answers by status %s%n", label, costs.size(),
        PER_ROUND, median(costs, Cost::chromiumMs), median(costs, Cost::jvmMs), median(costs, Cost::wallMs), statuses);
  }

  private static double median(List<Cost> costs, ToDoubleFunction<Cost> field) {
    return LoadStats.median(costs.stream().map(field::applyAsDouble).toList());
  }
}
