package io.quarry.bench;

import static io.quarry.bench.LocalNode.send;

import io.quarry.app.Node;
import io.quarry.testing.BusCertificates;
import io.quarry.testing.LatencyProxy;
import io.quarry.testing.ParquetServer;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Issue 38's benchmark, on loopback only: the 1.2 GB, 6-column file served over https (a certificate
 * authority made for the run) by test-support's file server, throttled to a link's bandwidth (100 MB/s unless given,
 * in MB/s, as the first argument; the origin offers HTTP/2 unless the second is {@code h1} (https, HTTP/1.1 only) or
 * {@code http} (plain HTTP/1.1), for comparison), with
 * every request answered 0, 20, 100 and 200 ms late (one round trip), after one unreported pass at 0 ms that warms
 * the node's code. For each
 * delay, through one node at its defaults (one worker process): adding the file (5 times, each a URL and conversation
 * of its own: median and range), the first query over 2 of its 6
 * columns, the same query again (5 times, median), and a trivial query repeated 15 times (median) — each beside what
 * physics allows (its fewest round trips × the delay + the bytes it must move ÷ the bandwidth) and the 0 ms figure.
 * With {@code link} as the third argument the delay is a link's round trip instead, half each way through a
 * {@link LatencyProxy} in front of the origin: handshakes and HTTP/2's flow-control credits take it too, so a
 * connection carries at most its window per round trip, as over a real far link.
 */
public final class FarBench {

  private static final long[] DELAYS_MS = {0, 20, 100, 200};
  private static final String TWO_COLUMNS = "SELECT max(a) AS a, max(v) AS v FROM table1";
  private static final String TRIVIAL = "SELECT count(*) FROM table1";
  private static final int REPEATS = 15;
  /** Runs of the same query again (median reported). */
  private static final int AGAIN = 5;
  /** Adds of the file per delay (each its own URL and conversation, a new copy for the worker); the median is reported. */
  private static final int ADDS = 5;

  private record Figures(double addMs, double addMinMs, double addMaxMs, long addRequests, double firstMs,
      long firstBytes, double againMs, double trivialMs, long requests, long http2Requests) {
  }

  public static void main(String[] args) throws Exception {
    long megabytesPerSecond = args.length > 0 ? Long.parseLong(args[0]) : 100;
    String protocol = args.length < 2 ? "h2" : args[1];
    boolean link = args.length > 2 && args[2].equals("link");
    boolean https = !protocol.equals("http");
    double bytesPerMs = megabytesPerSecond * 1_000.0;
    Path work = Path.of(System.getProperty("java.io.tmpdir"), "quarry-bench");
    Files.createDirectories(work);
    Path big = DatasetBench.bigFile(work);
    Path run = Scratch.dir("quarry-far-bench");
    BusCertificates.Identity origin = BusCertificates.authority(run.resolve("ca"), "origin").issue("files");
    long twoColumns;
    try (Connection duck = DriverManager.getConnection("jdbc:duckdb:")) {
      twoColumns = FetchBench.chunks(duck, big, "'a', 'v'");
    }
    Vertx outside = Vertx.vertx();
    ParquetServer files = https ? ParquetServer.startTls(outside, origin, protocol.equals("h2"))
        : ParquetServer.start(outside);
    Node node = start(run.resolve("node"), origin.ca());
    try {
      WebClient client = LocalNode.client(node);
      measure(client, files, "/warm-up", big, megabytesPerSecond, 0, files::url);
      System.out.printf(Locale.ROOT, "%nFile: %,d bytes over %s, %d MB/s; the 2 columns' chunks %,d bytes; %d cores;"
              + " the delay %s%n", Files.size(big), https ? "https (" + protocol + " offered)" : "http",
          megabytesPerSecond, twoColumns, Runtime.getRuntime().availableProcessors(),
          link ? "a round trip of the link (half each way)" : "an answer's lateness");
      System.out.printf(Locale.ROOT, "%-7s | %-34s | %-40s | %-22s | %-22s | %s%n", "delay",
          "add, median (range) of " + ADDS, "first query, 2 of 6 columns (÷ limit)",
          "the same again, median of " + AGAIN,
          "trivial, median of " + REPEATS, "over HTTP/2");
      Figures near = null;
      for (long delay : DELAYS_MS) {
        Figures measured;
        if (link) {
          LatencyProxy far = LatencyProxy.start(outside, files.port(), delay / 2);
          String at = ":" + files.port() + "/";
          try {
            measured = measure(client, files, "/d" + delay, big, megabytesPerSecond, 0,
                path -> files.url(path).replace(at, ":" + far.port() + "/"));
          } finally {
            far.close().await();
          }
        } else {
          measured = measure(client, files, "/d" + delay, big, megabytesPerSecond, delay, files::url);
        }
        near = near == null ? measured : near;
        report(delay, measured, near, bytesPerMs, twoColumns);
      }
      System.out.println("limit: the fewest round trips (add 1: tail and magic number at once; first query 1; again and"
          + " trivial 0, within the freshness window) × the delay + the bytes ÷ the bandwidth.");
    } finally {
      node.stop().await();
      outside.close().await();
    }
  }

  private static void report(long delay, Figures f, Figures near, double bytesPerMs, long twoColumns) {
    double addLimit = delay + 64 * 1024 / bytesPerMs;
    double firstLimit = delay + twoColumns / bytesPerMs;
    System.out.printf(Locale.ROOT, "%4d ms | %4.0f ms (%3.0f–%3.0f, %d req) lim %4.0f | %7.0f ms %,6.0f MB lim %5.0f"
            + " (%.2fx) | %6.1f ms (0 ms: %5.1f) | %6.1f ms (0 ms: %5.1f) | %d of %d%n", delay, f.addMs(), f.addMinMs(),
        f.addMaxMs(), f.addRequests(), addLimit, f.firstMs(), f.firstBytes() / 1e6, firstLimit, f.firstMs() / firstLimit,
        f.againMs(), near.againMs(), f.trivialMs(), near.trivialMs(), f.http2Requests(), f.requests());
    if (delay == 200) {
      BenchSummary.row("first query at 200 ms round trips, 2 of 6 columns, vs its physical limit (goal ≤ 1.1×)",
          "this build, in the benchmark's JVM", String.format(Locale.ROOT, "%.0f vs %.0f ms (%.2f×)", f.firstMs(),
              firstLimit, f.firstMs() / firstLimit));
    }
  }

  /**
   * {@code prefix}: the routes' own, one per add; the queries read the last one added. {@code lateMs}: how late the
   * origin answers; {@code url}: where a path of it is reached.
   */
  private static Figures measure(WebClient client, ParquetServer files, String prefix, Path big,
      long megabytesPerSecond, long lateMs, UnaryOperator<String> url) {
    List<Double> adds = new ArrayList<>();
    ParquetServer.Route route = null;
    String base = null;
    for (int i = 0; i < ADDS; i++) {
      String path = prefix + "/" + i + "/big.parquet";
      route = files.route(path).file(big).throttle(megabytesPerSecond * 1_000_000).roundTrip(lateMs);
      base = "/api/conversations/" + send(client, HttpMethod.POST, "/api/conversations", new JsonObject())
          .getString("id");
      long started = System.nanoTime();
      send(client, HttpMethod.POST, base + "/datasets", new JsonObject().put("url", url.apply(path)));
      adds.add((System.nanoTime() - started) / 1e6);
    }
    Collections.sort(adds);
    double addMs = adds.get(ADDS / 2);
    long addRequests = route.requests();
    long before = route.bodyBytes();
    long started = System.nanoTime();
    send(client, HttpMethod.POST, base + "/query", new JsonObject().put("sql", TWO_COLUMNS));
    double firstMs = (System.nanoTime() - started) / 1e6;
    long firstBytes = route.bodyBytes() - before;
    double againMs = medianMs(client, base, TWO_COLUMNS, AGAIN);
    double trivialMs = medianMs(client, base, TRIVIAL, REPEATS);
    return new Figures(addMs, adds.get(0), adds.get(ADDS - 1), addRequests, firstMs, firstBytes, againMs, trivialMs,
        route.requests(), route.http2Requests());
  }

  /** The median time of {@code sql} run {@code times} in a row in the conversation at {@code base}. */
  private static double medianMs(WebClient client, String base, String sql, int times) {
    List<Double> took = new ArrayList<>();
    for (int i = 0; i < times; i++) {
      long started = System.nanoTime();
      send(client, HttpMethod.POST, base + "/query", new JsonObject().put("sql", sql));
      took.add((System.nanoTime() - started) / 1e6);
    }
    Collections.sort(took);
    return took.get(times / 2);
  }

  private static Node start(Path dir, Path ca) {
    return LocalNode.start(dir, Map.of("QUARRY_ORIGIN_CA_FILE", ca.toString(), "QUARRY_WORKER_CACHE_MAX_BYTES", String.valueOf(8L << 30)));
  }

}
