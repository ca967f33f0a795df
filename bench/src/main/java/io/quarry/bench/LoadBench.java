package io.quarry.bench;

import io.quarry.bus.ChatEvents;
import io.quarry.testing.FakeGemini;
import io.quarry.testing.ParquetFixtures;
import io.quarry.testing.ParquetServer;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.ToDoubleFunction;

/**
 * Issue 19's load benchmark, on loopback only: one node of each given jar (default mode, two worker processes,
 * 2 cores), then 1, 10, 30 and 100 conversations at once, each with datasets of its own (a 12 KB file and a
 * 1 M-row file, each at a URL of its own), each running queries one after another: a trivial query and a
 * group-by. Then 30 new conversations once the node has answered {@code load.settle} more queries (6,000), 30 again
 * with a worker process SIGKILLed halfway, and a chat turn's time to its first token (fake Gemini) while 30
 * conversations query (their queries' times reported too).
 *
 * <p>Arguments: the jars to compare, e.g. the one before the change and the current one.
 */
public final class LoadBench {

  private static final int[] LEVELS = {1, 10, 30, 100};
  private static final String TRIVIAL = "SELECT count(*) + %d AS n FROM table1";
  private static final String GROUP_BY = "SELECT g, count(*) AS n, avg(v) AS mean FROM table2 GROUP BY g ORDER BY g";
  /** Queries of a kind per level, spread over its conversations (at least 3 trivial and 1 group-by each). */
  private static final int TRIVIAL_TOTAL = 300;
  private static final int GROUP_BY_TOTAL = 90;
  private static final int TURNS = 5;
  /** Turns timed on the quiet node: more than beside the load, which lasts a few seconds. */
  private static final int QUIET_TURNS = 20;
  private static final long LIMIT_S = 180;
  /**
   * Unmeasured queries (30 conversations at once) before the settled rows: a node's first thousand queries still
   * run much of its code interpreted or compiled by C1 while C2 compiles it, on the same two cores.
   */
  private static final int SETTLE = Integer.getInteger("load.settle", 6000);
  /** Times the killed row runs, each with 30 new conversations once both worker processes are ready again. */
  private static final int KILLED_ROUNDS = Integer.getInteger("load.killedRounds", 1);
  /** Set to false to go straight to the settled rows (for the killed row's rounds alone). */
  private static final boolean LEVELS_RUN = !"false".equals(System.getProperty("load.levels"));

  private final Vertx outside = Vertx.vertx();
  private final ParquetServer files = ParquetServer.start(outside);
  private final FakeGemini gemini = FakeGemini.start(outside);
  private final Path small;
  private final Path big;
  private final AtomicInteger routes = new AtomicInteger();

  private LoadBench(Path work) {
    small = work.resolve("small.parquet");
    big = work.resolve("big.parquet");
    ParquetFixtures.create(small, "SELECT range AS id, range % 7 AS k FROM range(1000)");
    ParquetFixtures.create(big, "SELECT range % 100 AS g, random() AS v FROM range(1000000)");
  }

  public static void main(String[] args) throws Exception {
    Path work = Scratch.dir("quarry-load");
    LoadBench bench = new LoadBench(work);
    System.out.printf(Locale.ROOT, "Load: conversations at once, each with its own datasets (%,d and %,d bytes), "
        + "%d cores%n", Files.size(bench.small), Files.size(bench.big), Runtime.getRuntime().availableProcessors());
    for (String jar : args) {
      bench.run(Path.of(jar), work.resolve("node-" + Math.abs(jar.hashCode())));
    }
    bench.outside.close().await();
  }

  private void run(Path jar, Path data) throws Exception {
    System.out.printf(Locale.ROOT, "%n%s%n", jar);
    System.out.printf(Locale.ROOT, "   %-13s %-9s %8s %8s %8s %8s  %s%n", "conversations", "query", "p50 ms", "p99 ms",
        "q/s", "queries", "failed");
    try (BenchJarNode node = BenchJarNode.start(jar, List.of(), settings(gemini.baseUrl()), data, outside, 200)) {
      for (int level : LEVELS_RUN ? LEVELS : new int[0]) {
        List<String> conversations = conversations(node.client, level);
        report(level + "", "trivial", load(node.client, conversations, TRIVIAL, TRIVIAL_TOTAL, null));
        report(level + "", "group-by", load(node.client, conversations, GROUP_BY, GROUP_BY_TOTAL, null));
      }
      List<String> settling = conversations(node.client, 30);
      load(node.client, settling, TRIVIAL, SETTLE, null);
      List<String> settled = conversations(node.client, 30);
      LoadStats trivial = load(node.client, settled, TRIVIAL, TRIVIAL_TOTAL, null);
      report("30, settled", "trivial", trivial);
      summary("30 conversations, trivial query", jar, trivial);
      LoadStats groupBy = load(node.client, settled, GROUP_BY, GROUP_BY_TOTAL, null);
      report("30, settled", "group-by", groupBy);
      summary("30 conversations, group-by over 1 M rows", jar, groupBy);
      List<String> thirty = List.of();
      for (int round = 1; round <= KILLED_ROUNDS; round++) {
        awaitWorkers(node, 2);
        thirty = conversations(node.client, 30);
        LoadStats killed = load(node.client, thirty, TRIVIAL, TRIVIAL_TOTAL, () -> killWorker(node));
        report("30, killed", "trivial", killed);
        summary("30 conversations, a worker SIGKILLed halfway (goal p50 ≤ 100 ms, p99 ≤ 1 s)", jar, killed);
        System.out.printf(Locale.ROOT, "      under way at the kill, answered in (ms): %s%n",
            killed.underWayAtHalfway().stream().map(ms -> String.format(Locale.ROOT, "%.0f", ms)).toList());
      }
      timeToFirstToken(node, jar, thirty);
    }
  }

  /** Conversations with datasets of their own, each queried once (unmeasured) so its files are cached. */
  private List<String> conversations(WebClient client, int n) {
    List<Future<String>> created = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      int route = routes.incrementAndGet();
      files.route("/small-" + route + ".parquet").file(small);
      files.route("/big-" + route + ".parquet").file(big);
      created.add(client.post("/api/conversations").send().map(r -> r.bodyAsJsonObject().getString("id"))
          .compose(id -> add(client, id, "/small-" + route + ".parquet")
              .compose(v -> add(client, id, "/big-" + route + ".parquet"))
              .compose(v -> query(client, id, String.format(TRIVIAL, 0)))
              .compose(r -> query(client, id, GROUP_BY))
              .map(id)));
    }
    return Future.all(created).await().list();
  }

  private Future<Void> add(WebClient client, String conversation, String path) {
    return client.post("/api/conversations/" + conversation + "/datasets")
        .sendJsonObject(new JsonObject().put("url", files.url(path)))
        .compose(r -> r.statusCode() == 201 ? Future.succeededFuture()
            : Future.failedFuture("adding " + path + ": " + r.statusCode() + " " + r.bodyAsString()));
  }

  private static Future<HttpResponse<Buffer>> query(WebClient client, String conversation, String sql) {
    return client.post("/api/conversations/" + conversation + "/query").sendJsonObject(new JsonObject().put("sql", sql));
  }

  /**
   * Each conversation runs its share of {@code total} queries one after another, all conversations at once;
   * {@code halfway} runs once half of them have answered.
   */
  private LoadStats load(WebClient client, List<String> conversations, String sql, int total, Runnable halfway) {
    int each = Math.max(sql.equals(GROUP_BY) ? 1 : 3, total / conversations.size());
    LoadStats stats = new LoadStats(each * conversations.size(), halfway);
    List<Future<Void>> loops = new ArrayList<>();
    for (String conversation : conversations) {
      loops.add(loop(client, conversation, sql, each, stats));
    }
    Future.all(loops).await();
    return stats.done();
  }

  private static Future<Void> loop(WebClient client, String conversation, String sql, int left, LoadStats stats) {
    if (left == 0) {
      return Future.succeededFuture();
    }
    long ticket = stats.asked();
    long started = System.nanoTime();
    return query(client, conversation, String.format(sql, left))
        .transform(r -> {
          stats.answered(ticket, started, r.succeeded() ? r.result().statusCode() : -1);
          return loop(client, conversation, sql, left - 1, stats);
        });
  }

  private static void report(String conversations, String query, LoadStats stats) {
    System.out.printf(Locale.ROOT, "   %-13s %-9s %8.1f %8.1f %8.1f %8d  %s%n", conversations, query, stats.p50(),
        stats.p99(), stats.perSecond(), stats.count(), stats.failures());
  }

  private static void summary(String figure, Path jar, LoadStats stats) {
    BenchSummary.row(figure, jar, String.format(Locale.ROOT, "p50 %.1f ms, p99 %.1f ms%s", stats.p50(), stats.p99(),
        stats.anyFailed() ? ", failed: " + stats.failures() : ""));
  }

  /** One chat turn: from asking to its first token, and to the model's receiving the request the turn made. */
  private record Turn(double firstTokenMs, double toModelMs) {
  }

  /** Time from asking to the first chat_token on the WebSocket, alone and while 30 conversations query. */
  private void timeToFirstToken(BenchJarNode node, Path jar, List<String> thirty) throws Exception {
    WebSocket ws = outside.createWebSocketClient().connect(new WebSocketConnectOptions().setHost("127.0.0.1")
        .setPort(node.port).setURI("/ws").addHeader("Origin", "http://127.0.0.1:" + node.port)).await();
    List<Turn> idle = turns(node.client, ws, QUIET_TURNS);
    CompletableFuture<List<Turn>> busyTurns = new CompletableFuture<>();
    Runnable halfway = () -> CompletableFuture.supplyAsync(() -> turns(node.client, ws, TURNS))
        .whenComplete((times, failure) -> {
          if (failure != null) {
            busyTurns.completeExceptionally(failure);
          } else {
            busyTurns.complete(times);
          }
        });
    LoadStats beside = load(node.client, thirty, TRIVIAL, TRIVIAL_TOTAL * 3, halfway);
    List<Turn> busy = busyTurns.get(LIMIT_S, TimeUnit.SECONDS);
    report("30, chat", "trivial", beside);
    summary("30 conversations, chat turns beside", jar, beside);
    ws.close().await();
    System.out.printf(Locale.ROOT, "   chat, time to first token: alone median %.1f ms (%.1f until the model had the"
        + " request; %d turns), while 30 conversations query median %.1f ms (%.1f; max %.1f; %d turns)%n",
        median(idle, Turn::firstTokenMs), median(idle, Turn::toModelMs), QUIET_TURNS, median(busy, Turn::firstTokenMs),
        median(busy, Turn::toModelMs), busy.stream().mapToDouble(Turn::firstTokenMs).max().orElse(0), TURNS);
    BenchSummary.row("a chat turn's first token, alone / beside 30 conversations", jar, String.format(Locale.ROOT,
        "%.1f / %.1f ms (medians)", median(idle, Turn::firstTokenMs), median(busy, Turn::firstTokenMs)));
  }

  private static double median(List<Turn> turns, ToDoubleFunction<Turn> field) {
    return LoadStats.median(turns.stream().map(field::applyAsDouble).toList());
  }

  /** {@code n} chat turns one after another, each timed to its first token and to the model's request. */
  private List<Turn> turns(WebClient client, WebSocket ws, int n) {
    List<Turn> times = new ArrayList<>();
    String conversation = client.post("/api/conversations").send().await().bodyAsJsonObject().getString("id");
    for (int i = 0; i < n; i++) {
      gemini.next().answer("Forty-", "two.");
      Promise<Long> first = Promise.promise();
      Promise<Void> complete = Promise.promise();
      ws.textMessageHandler(text -> {
        JsonObject event = new JsonObject(text);
        String type = event.getString("type");
        if (ChatEvents.CHAT_TOKEN.equals(type)) {
          first.tryComplete(System.nanoTime());
        } else if (ChatEvents.CHAT_COMPLETE.equals(type) || ChatEvents.CHAT_ERROR.equals(type)) {
          complete.tryComplete();
        }
      });
      long asked = System.nanoTime();
      client.post("/api/conversations/" + conversation + "/messages")
          .sendJsonObject(new JsonObject().put("content", "How many?")).await();
      long firstToken = first.future().timeout(LIMIT_S, TimeUnit.SECONDS).await();
      complete.future().timeout(LIMIT_S, TimeUnit.SECONDS).await();
      // The fake and this benchmark share a clock: the first request it received after the question is the answer's.
      long received = gemini.requests().stream().mapToLong(FakeGemini.Request::receivedNanos)
          .filter(at -> at >= asked).min().orElseThrow();
      times.add(new Turn((firstToken - asked) / 1e6, (received - asked) / 1e6));
    }
    return times;
  }

  /** The settings of the node under load, whose chat goes to the fake Gemini at {@code geminiUrl}. */
  private static Map<String, String> settings(String geminiUrl) {
    Map<String, String> env = new HashMap<>();
    env.put("QUARRY_ALLOW_PRIVATE_NETWORKS", "true");
    env.put("GEMINI_API_KEY", "bench");
    env.put("GEMINI_BASE_URL", geminiUrl);
    // The one local user stands for a team of as many people as conversations: its own limits (queries at once and
    // waiting, changes per minute) are raised so that what is measured is the node, not one user's allowance.
    env.put("QUARRY_DATASET_MAX_QUERIES_PER_USER", "1000");
    env.put("QUARRY_DATASET_MAX_WAITING_QUERIES_PER_USER", "1000");
    env.put("QUARRY_CHAT_WRITE_BURST", "100000");
    env.put("QUARRY_CHAT_WRITES_PER_MINUTE", "100000");
    return env;
  }

  /**
   * Waits, at most a minute, until {@code count} of the node's worker processes are ready (one killed comes back); at
   * once for a jar from before worker processes, whose queries run in the node.
   */
  private static void awaitWorkers(BenchJarNode node, int count) throws InterruptedException {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < until) {
      JsonObject pool = node.client.get("/api/health/nodes").send().await().bodyAsJsonObject()
          .getJsonObject("local_workers");
      if (pool == null || pool.getJsonArray("workers").stream()
          .filter(w -> "ready".equals(((JsonObject) w).getString("state"))).count() >= count) {
        return;
      }
      Thread.sleep(100);
    }
    throw new IllegalStateException("the worker processes were not ready again within a minute");
  }

  /** SIGKILLs the node's first worker process. */
  private static void killWorker(BenchJarNode node) {
    node.client.get("/api/health/nodes").send().onSuccess(r -> {
      JsonArray workers = r.bodyAsJsonObject().getJsonObject("local_workers").getJsonArray("workers");
      ProcessHandle.of(workers.getJsonObject(0).getLong("pid")).ifPresent(ProcessHandle::destroyForcibly);
    });
  }
}
