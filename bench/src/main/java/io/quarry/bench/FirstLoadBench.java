package io.quarry.bench;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.CDPSession;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import com.microsoft.playwright.Request;
import com.microsoft.playwright.Response;
import com.microsoft.playwright.Route;
import io.quarry.app.Node;
import io.quarry.testing.Chromium;
import io.quarry.testing.UiBundle;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A first visit to a page, as a new user (a browser context of its own, nothing cached) has it, in three comparisons,
 * each against its baseline in the same run. The bundle: the main page the jar serves, its modules bundled into one
 * script, against the same page loading the modules themselves (the entry module's source, {@code webroot/js/app.js},
 * answered in place of the bundle, whose imports the node serves as they are in the jar), on loopback and with 100 ms
 * added to each round trip. Compression: the page as served to a browser that accepts gzip, against one that asks for
 * no compression, over 100 ms round trips and 10 Mbit/s down. Reopening: a conversation of eight results opened by its
 * address, the page asking for its results at once, against the same page with each of those requests held until the
 * one before it ended (as the page asked before 2026-12-02), over 100 ms round trips. Chromium's CPU a load (every
 * process of the browser this JVM started, with the renderers it has reaped) and the time to a page ready and
 * connected. Chromium's own network emulation makes the far links; the suite's Chromium ({@link Chromium}), a node in
 * this JVM whose one worker process starts for the reopened conversation's queries.
 */
public final class FirstLoadBench {

  private static final int WARM_UP = 3;
  private static final int ROUNDS = 4;
  private static final int LOADS = 5;
  private static final int RESULTS = 8;

  private record Cost(double chromiumMs, double wallMs) {
  }

  /**
   * How the page is loaded: its entry script answered with {@code entry} (null: as the node serves it); {@code
   * oneAtATime}: the page's requests for results held so that each goes only when the one before has ended.
   */
  private record Way(String label, byte[] entry, boolean gzip, boolean oneAtATime) {

    Way(String label, byte[] entry, boolean gzip) {
      this(label, entry, gzip, false);
    }
  }

  /** {@code latencyMs} added to each round trip; {@code bytesPerSecond} down, -1 for no limit. */
  private record Link(String label, int latencyMs, long bytesPerSecond) {
  }

  private FirstLoadBench() {
  }

  public static void main(String[] args) throws Exception {
    byte[] modules = Files.readAllBytes(Path.of("webroot/js/app.js"));
    Node node = LocalNode.start(Scratch.dir("quarry-first-load"), Map.of());
    String url = "http://127.0.0.1:" + node.httpPort() + "/";
    try (Playwright playwright = Chromium.playwright(); Browser browser = Chromium.launch(playwright)) {
      byte[] bundle = playwright.request().newContext().get(url + "js/app.js").body();
      if (!UiBundle.bundled(bundle)) {
        throw new IllegalStateException("this build serves the modules unbundled (no esbuild for its platform)");
      }
      Way bundled = new Way("the bundle (the jar's page)", bundle, true);
      Way unbundled = new Way("the modules (the baseline)", modules, true);
      compare(browser, url, new Link("on loopback", 0, -1), bundled, unbundled);
      compare(browser, url, new Link("100 ms added", 100, -1), bundled, unbundled);
      compare(browser, url, new Link("100 ms and 10 Mbit/s", 100, 1_250_000),
          new Way("gzip accepted (as browsers do)", null, true), new Way("no compression (the baseline)", null, false));
      compare(browser, url + "c/" + conversationOfResults(node, url), new Link("100 ms added", 100, -1),
          new Way("a conversation of " + RESULTS + " results reopened", null, true),
          new Way("its results asked for one at a time (the baseline)", null, true, true));
    } finally {
      node.stop().await();
    }
  }

  /** A conversation of {@link #RESULTS} results of the SQL runner's, over the node's own sample of cars; its id. */
  private static String conversationOfResults(Node node, String url) {
    WebClient client = LocalNode.client(node);
    String id = LocalNode.send(client, HttpMethod.POST, "/api/conversations", new JsonObject())
        .getString("id");
    String conversation = "/api/conversations/" + id;
    LocalNode.send(client, HttpMethod.POST, conversation + "/datasets", new JsonObject()
        .put("url", url + "samples/cars.parquet"));
    for (int i = 0; i < RESULTS; i++) {
      LocalNode.send(client, HttpMethod.POST, conversation + "/query", new JsonObject()
          .put("sql", "SELECT origin, count(*) + " + i + " AS n FROM table1 GROUP BY origin").put("origin", "runner"));
    }
    return id;
  }

  private static void compare(Browser browser, String url, Link link, Way way, Way baseline) {
    for (int i = 0; i < WARM_UP; i++) {
      load(browser, url, way, link);
      load(browser, url, baseline, link);
    }
    List<Cost> ways = new ArrayList<>();
    List<Cost> baselines = new ArrayList<>();
    for (int round = 0; round < ROUNDS; round++) {
      ways.add(loads(browser, url, way, link));
      baselines.add(loads(browser, url, baseline, link));
    }
    report(link, way, ways);
    report(link, baseline, baselines);
    System.out.printf(Locale.ROOT, "%s: %s against %s: Chromium %.2fx, to ready %.2fx%n", link.label(), way.label(),
        baseline.label(), median(ways, true) / median(baselines, true),
        median(ways, false) / median(baselines, false));
  }

  /** {@link #LOADS} first loads, per load. */
  private static Cost loads(Browser browser, String url, Way way, Link link) {
    long chromium0 = ProcessCpu.chromium();
    double wall = 0;
    for (int i = 0; i < LOADS; i++) {
      wall += load(browser, url, way, link);
    }
    return new Cost((ProcessCpu.chromium() - chromium0) / 1e6 / LOADS, wall / LOADS);
  }

  /** One first load in a new context; ms to ready and connected. */
  private static double load(Browser browser, String url, Way way, Link link) {
    BrowserContext context = browser.newContext(new Browser.NewContextOptions().setViewportSize(1400, 900));
    try {
      if (!way.gzip()) {
        context.setExtraHTTPHeaders(Map.of("Accept-Encoding", "identity"));
      }
      Page page = context.newPage();
      if (way.entry() != null) {
        page.route("**/js/app.js", route -> fulfil(route, way.entry()));
      }
      if (way.oneAtATime()) {
        oneAtATime(page);
      }
      if (link.latencyMs() > 0) {
        CDPSession cdp = context.newCDPSession(page);
        cdp.send("Network.enable");
        com.google.gson.JsonObject conditions = new com.google.gson.JsonObject();
        conditions.addProperty("offline", false);
        conditions.addProperty("latency", link.latencyMs());
        conditions.addProperty("downloadThroughput", link.bytesPerSecond());
        conditions.addProperty("uploadThroughput", -1);
        cdp.send("Network.emulateNetworkConditions", conditions);
      }
      long start = System.nanoTime();
      Response script = page.waitForResponse(r -> r.url().endsWith("/js/app.js"), () -> page.navigate(url));
      page.waitForSelector("body[data-ready='true']");
      page.waitForFunction("() => document.querySelector('#connection-text')?.textContent === 'Connected'");
      double ms = (System.nanoTime() - start) / 1e6;
      String encoding = script.headerValue("content-encoding");
      if (way.entry() == null && !Objects.equals(encoding, way.gzip() ? "gzip" : null)) {
        throw new IllegalStateException(way.label() + ": the script came with Content-Encoding " + encoding);
      }
      return ms;
    } finally {
      context.close();
    }
  }

  /** Holds each request for a result until the one before it has ended (Playwright's handlers never block). */
  private static void oneAtATime(Page page) {
    Deque<Route> held = new ArrayDeque<>();
    boolean[] busy = {false};
    page.route("**/api/results/*", route -> {
      if (busy[0]) {
        held.add(route);
      } else {
        busy[0] = true;
        route.resume();
      }
    });
    Consumer<Request> ended = request -> {
      if (request.url().contains("/api/results/")) {
        Route next = held.poll();
        busy[0] = next != null;
        if (next != null) {
          next.resume();
        }
      }
    };
    page.onRequestFinished(ended);
    page.onRequestFailed(ended);
  }

  private static void fulfil(Route route, byte[] entry) {
    route.fulfill(new Route.FulfillOptions().setStatus(200).setContentType("text/javascript; charset=utf-8")
        .setBodyBytes(entry));
  }

  private static void report(Link link, Way way, List<Cost> costs) {
    System.out.printf(Locale.ROOT, "%s, %s, medians of %d rounds of %d first loads: Chromium %.0f ms of CPU a load,"
        + " %.0f ms to ready and connected%n", link.label(), way.label(), costs.size(), LOADS, median(costs, true),
        median(costs, false));
  }

  private static double median(List<Cost> costs, boolean chromium) {
    return LoadStats.median(costs.stream().map(c -> chromium ? c.chromiumMs() : c.wallMs()).toList());
  }
}
