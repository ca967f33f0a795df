package io.quarry.bench;

import io.quarry.testing.FakeGemini;
import io.quarry.testing.JarCommand;
import io.quarry.testing.JarNode;
import io.quarry.testing.ParquetFixtures;
import io.quarry.testing.ParquetServer;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Issue 18's benchmark, loopback only: what recording metrics costs. Two nodes from the jar run side by side, one with
 * metrics (Vert.x's and Quarry's, scraped now and then as Prometheus would) and one without ({@code metrics.port} 0:
 * nothing recorded), and are measured in turn: a trivial query's round trip through HTTP, the node and a worker
 * process, and the token relay (fake Gemini writes a chunk → the WebSocket receives it).
 */
public final class MetricsBench {

  static final int QUERY_WARMUP = 100;
  static final int QUERIES = 400;
  static final int STREAMS = 12;
  static final int CHUNKS = 100;
  static final long CHUNK_GAP_MS = 2;

  public static void main(String[] args) throws Exception {
    Path jar = Path.of(args.length > 0 ? args[0] : "app/target/quarry.jar");
    Path work = Scratch.dir("quarry-metrics-bench");
    Vertx outside = Vertx.vertx();
    FakeGemini gemini = FakeGemini.start(outside);
    ParquetServer files = ParquetServer.start(outside);
    files.route("/people.parquet").content(ParquetFixtures.people(work));
    try (Side with = Side.start(jar, work.resolve("with"), gemini, outside, true);
        Side without = Side.start(jar, work.resolve("without"), gemini, outside, false);
        Side again = Side.start(jar, work.resolve("without-again"), gemini, outside, false)) {
      List<Side> sides = List.of(with, without, again);
      for (Side side : sides) {
        side.dataset(files.url("/people.parquet"));
      }
      System.out.printf(Locale.ROOT, "%nWhat metrics cost, nodes from %s side by side (one with metrics, two without:"
          + " the second shows what differs between two identical nodes), measured in turn; %d cores%n", jar,
          Runtime.getRuntime().availableProcessors());
      Map<Side, List<Double>> queries = new HashMap<>();
      for (int i = 0; i < QUERY_WARMUP + QUERIES; i++) {
        // Each round in another order, so that no node is always measured first.
        for (int k = 0; k < sides.size(); k++) {
          Side side = sides.get((i + k) % sides.size());
          double ms = side.trivialQuery();
          if (i >= QUERY_WARMUP) {
            queries.computeIfAbsent(side, s -> new ArrayList<>()).add(ms);
          }
        }
        if (i % 50 == 0) {
          with.scrape();
        }
      }
      report("trivial query round trip", queries, with, without, again);
      Map<Side, List<Double>> relay = new HashMap<>();
      for (Side side : sides) {
        side.relay(gemini, 2);
      }
      for (int round = 0; round < STREAMS; round++) {
        for (int k = 0; k < sides.size(); k++) {
          Side side = sides.get((round + k) % sides.size());
          relay.computeIfAbsent(side, s -> new ArrayList<>()).addAll(side.relay(gemini, 1));
        }
        with.scrape();
      }
      report("token relay", relay, with, without, again);
    } finally {
      outside.close().await();
    }
  }

  private static void report(String what, Map<Side, List<Double>> by, Side with, Side without, Side again) {
    double a = LoadStats.median(by.get(with));
    double b = LoadStats.median(by.get(without));
    double c = LoadStats.median(by.get(again));
    System.out.printf(Locale.ROOT, "  %-26s medians of %5d: without %7.3f ms, with %7.3f ms: %.3f× (%+.1f %%);"
        + " the second node without: %7.3f ms, %.3f×%n", what, by.get(with).size(), b, a, a / b, 100 * (a - b) / b, c,
        c / b);
  }

  /** One node from the jar, in the default mode (two worker processes), with metrics or without. */
  private static final class Side implements AutoCloseable {
    final JarNode node;
    final WebClient client;
    final WebClient scraper;
    final int port;
    final int metricsPort;
    final Vertx outside;
    String conversation;

    private Side(JarNode node, WebClient client, WebClient scraper, int port, int metricsPort, Vertx outside) {
      this.node = node;
      this.client = client;
      this.scraper = scraper;
      this.port = port;
      this.metricsPort = metricsPort;
      this.outside = outside;
    }

    static Side start(Path jar, Path data, FakeGemini gemini, Vertx outside, boolean metrics) throws Exception {
      Files.createDirectories(data);
      int port = JarCommand.freePort();
      int metricsPort = metrics ? JarCommand.freePort() : 0;
      Map<String, String> env = new HashMap<>();
      env.put("QUARRY_HTTP_PORT", String.valueOf(port));
      env.put("QUARRY_METRICS_PORT", String.valueOf(metricsPort));
      env.put("QUARRY_DATA_DIR", data.toString());
      env.put("QUARRY_ALLOW_PRIVATE_NETWORKS", "true");
      env.put("GEMINI_API_KEY", "bench");
      env.put("GEMINI_BASE_URL", gemini.baseUrl());
      env.put("QUARRY_CHAT_WRITE_BURST", "100000");
      env.put("QUARRY_CHAT_WRITES_PER_MINUTE", "100000");
      JarNode node = JarNode.launch(jar, data.resolve("node.log"), env, "--config", data.resolve("none.json").toString());
      node.awaitStarted(120);
      WebClient client = WebClient.create(outside, new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(port)
          .setKeepAlive(true));
      WebClient scraper = WebClient.create(outside, new WebClientOptions().setDefaultHost("127.0.0.1")
          .setDefaultPort(metricsPort));
      return new Side(node, client, scraper, port, metricsPort, outside);
    }

    void dataset(String url) {
      conversation = client.post("/api/conversations").sendJsonObject(new JsonObject()).await().bodyAsJsonObject()
          .getString("id");
      int status = client.post("/api/conversations/" + conversation + "/datasets")
          .sendJsonObject(new JsonObject().put("url", url)).await().statusCode();
      if (status != 201) {
        throw new IllegalStateException("dataset not added: " + status);
      }
    }

    double trivialQuery() {
      long sent = System.nanoTime();
      int status = client.post("/api/conversations/" + conversation + "/query")
          .sendJsonObject(new JsonObject().put("sql", "SELECT count(*) AS n FROM table1")).await().statusCode();
      if (status != 200) {
        throw new IllegalStateException("query failed: " + status);
      }
      return (System.nanoTime() - sent) / 1e6;
    }

    /** As Prometheus does: every scrape formats every meter, which the recording side pays for too. */
    void scrape() {
      if (metricsPort > 0) {
        scraper.get("/metrics").send().await();
      }
    }

    /** {@code streams} answers, one after another; each token's latency from its write to its arrival. */
    List<Double> relay(FakeGemini gemini, int streams) throws Exception {
      List<Double> latencies = new ArrayList<>();
      WebSocket ws = outside.createWebSocketClient().connect(new WebSocketConnectOptions().setHost("127.0.0.1")
          .setPort(port).setURI("/ws").addHeader("Origin", "http://127.0.0.1:" + port)).await();
      for (int s = 0; s < streams; s++) {
        FakeGemini.Script script = gemini.next();
        for (int c = 0; c < CHUNKS; c++) {
          script.text("c" + c + " ").pause(CHUNK_GAP_MS);
        }
        script.usage(10, CHUNKS);
        CountDownLatch complete = new CountDownLatch(1);
        ws.textMessageHandler(text -> {
          long now = System.nanoTime();
          JsonObject event = new JsonObject(text);
          if ("chat_token".equals(event.getString("type"))) {
            int c = Integer.parseInt(event.getString("token").strip().substring(1));
            synchronized (latencies) {
              latencies.add((now - script.sentNanos().get(c)) / 1e6);
            }
          } else if ("chat_complete".equals(event.getString("type"))) {
            complete.countDown();
          }
        });
        String id = client.post("/api/conversations").sendJsonObject(new JsonObject()).await().bodyAsJsonObject()
            .getString("id");
        client.post("/api/conversations/" + id + "/messages").sendJsonObject(new JsonObject().put("content", "go"))
            .await();
        if (!complete.await(60, TimeUnit.SECONDS)) {
          throw new IllegalStateException("the answer did not complete");
        }
      }
      ws.close().await();
      return latencies;
    }

    @Override
    public void close() throws InterruptedException {
      JarCommand.stop(node.process);
    }
  }
}
