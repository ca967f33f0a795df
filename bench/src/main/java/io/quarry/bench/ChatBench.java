package io.quarry.bench;

import io.quarry.app.Launcher;
import io.quarry.app.Node;
import io.quarry.testing.FakeGemini;
import io.quarry.testing.FakeModel;
import io.quarry.testing.FakeOpenAI;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Issue 4's benchmark, on loopback only: token relay latency from the fake model server writing a chunk to the
 * browser's WebSocket receiving it (same JVM, same clock), p50 and p99, with 1 and with 200 concurrent
 * streams, for both providers side by side (Gemini's API, and OpenAI's Chat Completions: issue 39); the stop latency
 * and the heap an open WebSocket costs.
 */
public final class ChatBench {

  private static final int CHUNKS = 20;
  /** Held for the whole run: a client nobody references may be reclaimed, evicting its connections. */
  private static WebSocketClient sockets;
  private static final long CHUNK_GAP_MS = 40;

  public static void main(String[] args) throws Exception {
    Vertx outside = Vertx.vertx();
    sockets = outside.createWebSocketClient(new WebSocketClientOptions().setMaxConnections(2000));
    FakeGemini gemini = FakeGemini.start(outside);
    FakeOpenAI openai = FakeOpenAI.start(outside);
    System.out.printf(Locale.ROOT, "%nToken relay latency (fake model server write → WebSocket receive), %d cores%n",
        Runtime.getRuntime().availableProcessors());
    List<String> table = new ArrayList<>();
    try {
      for (FakeModel<?> fake : List.<FakeModel<?>>of(gemini, openai)) {
        Node node = node(fake);
        try {
          WebClient client = WebClient.create(node.vertx(), new WebClientOptions().setDefaultHost("127.0.0.1")
              .setDefaultPort(node.httpPort()));
          relay(outside, fake, client, node, 1, "cold JIT");
          table.add(String.format(Locale.ROOT, "   %-7s 1 stream   %s", fake.provider(),
              relay(outside, fake, client, node, 1, "warm")));
          table.add(String.format(Locale.ROOT, "   %-7s 200 streams %s", fake.provider(),
              relay(outside, fake, client, node, 200, "warm")));
          if (fake == gemini) {
            stopLatency(outside, gemini, client, node, 30);
            heapPerSocket(outside, node, 1000);
          }
        } finally {
          node.stop().await();
        }
      }
      System.out.printf(Locale.ROOT, "%nSide by side (warm):%n%s%n", String.join("\n", table));
    } finally {
      outside.close().await();
    }
  }

  /** A node whose chat goes to {@code fake}. */
  private static Node node(FakeModel<?> fake) throws Exception {
    Path work = Scratch.dir("quarry-chat-bench");
    Map<String, String> env = new HashMap<>();
    env.put("QUARRY_HTTP_PORT", "0");
    env.put("QUARRY_DATA_DIR", work.toString());
    env.put("QUARRY_LLM_PROVIDER", fake.provider());
    env.put("GEMINI_API_KEY", "bench");
    env.put("OPENAI_API_KEY", "bench");
    env.put(fake.provider().equals("openai") ? "OPENAI_BASE_URL" : "GEMINI_BASE_URL", fake.baseUrl());
    // One local user stands for 200 people streaming at once: the per-user caps on answers being written at once and
    // on changes per minute (3 and 100 at once) would refuse all but the first few questions.
    env.put("QUARRY_LLM_MAX_TURNS_PER_USER", "1000");
    env.put("QUARRY_CHAT_WRITE_BURST", "100000");
    env.put("QUARRY_CHAT_WRITES_PER_MINUTE", "100000");
    return Launcher.start(env, "--config", work.resolve("none.json").toString()).await();
  }

  /** Prints and returns the latencies' line. */
  private static String relay(Vertx outside, FakeModel<?> fake, WebClient client, Node node, int streams,
      String label) throws Exception {
    List<FakeModel.Script> scripts = new ArrayList<>();
    for (int s = 0; s < streams; s++) {
      FakeModel.Script script = fake.next();
      for (int c = 0; c < CHUNKS; c++) {
        script.text("s" + s + "c" + c + " ").pause(CHUNK_GAP_MS);
      }
      scripts.add(script.usage(10, CHUNKS));
    }
    List<Double> latencies = new ArrayList<>();
    CountDownLatch complete = new CountDownLatch(streams);
    Map<String, Integer> scriptOfMessage = new HashMap<>();
    WebSocket ws = socket(outside, node);
    ws.textMessageHandler(text -> {
      long now = System.nanoTime();
      JsonObject event = new JsonObject(text);
      if ("chat_token".equals(event.getString("type"))) {
        String token = event.getString("token").strip();
        int s = Integer.parseInt(token.substring(1, token.indexOf('c')));
        int c = Integer.parseInt(token.substring(token.indexOf('c') + 1));
        synchronized (latencies) {
          latencies.add((now - scripts.get(s).sentNanos().get(c)) / 1e6);
        }
      } else if ("chat_complete".equals(event.getString("type"))) {
        complete.countDown();
      }
    });
    for (int s = 0; s < streams; s++) {
      String id = client.post("/api/conversations").send().await().bodyAsJsonObject().getString("id");
      client.post("/api/conversations/" + id + "/messages").sendJsonObject(new JsonObject().put("content", "go")).await();
    }
    if (!complete.await(120, TimeUnit.SECONDS)) {
      throw new IllegalStateException("streams did not complete");
    }
    ws.close().await();
    double[] sorted = latencies.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    String line = String.format(Locale.ROOT, "%6d tokens   p50 %7.3f ms   p99 %7.3f ms   max %7.3f ms", sorted.length,
        percentile(sorted, 50), percentile(sorted, 99), sorted[sorted.length - 1]);
    System.out.printf(Locale.ROOT, "   %-7s %3d concurrent stream(s), %-8s %s%n", fake.provider(), streams, label + ":",
        line);
    return line;
  }

  /** From POST /stop to the fake Gemini seeing its stalled stream closed. */
  private static void stopLatency(Vertx outside, FakeGemini gemini, WebClient client, Node node, int runs) throws Exception {
    WebSocket ws = socket(outside, node);
    java.util.concurrent.BlockingQueue<String> tokens = new java.util.concurrent.LinkedBlockingQueue<>();
    ws.textMessageHandler(text -> {
      if ("chat_token".equals(new JsonObject(text).getString("type"))) {
        tokens.add(text);
      }
    });
    double[] ms = new double[runs];
    for (int i = 0; i < runs; i++) {
      FakeGemini.Script script = gemini.next().text("partial").stall();
      String id = client.post("/api/conversations").send().await().bodyAsJsonObject().getString("id");
      client.post("/api/conversations/" + id + "/messages").sendJsonObject(new JsonObject().put("content", "go")).await();
      if (tokens.poll(10, TimeUnit.SECONDS) == null) {
        throw new IllegalStateException("no token");
      }
      long t0 = System.nanoTime();
      client.post("/api/conversations/" + id + "/stop").send().await();
      script.closed().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
      ms[i] = (System.nanoTime() - t0) / 1e6;
    }
    ws.close().await();
    java.util.Arrays.sort(ms);
    System.out.printf(Locale.ROOT, "%nStop on a stalled stream (POST /stop → Gemini's connection closed), %d runs: p50 %.3f ms   p99 %.3f ms   max %.3f ms%n",
        runs, percentile(ms, 50), percentile(ms, 99), ms[runs - 1]);
  }

  private static void heapPerSocket(Vertx outside, Node node, int count) throws Exception {
    long before = usedHeapAfterGc();
    List<WebSocket> sockets = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      sockets.add(socket(outside, node));
    }
    long after = usedHeapAfterGc();
    System.out.printf(Locale.ROOT, "%nHeap per open WebSocket: %.1f KB (%d sockets; server and client ends in one JVM)%n",
        (after - before) / 1024.0 / count, count);
    for (WebSocket ws : sockets) {
      ws.close().await();
    }
  }

  private static WebSocket socket(Vertx outside, Node node) {
    return sockets.connect(new WebSocketConnectOptions().setHost("127.0.0.1")
        .setPort(node.httpPort()).setURI("/ws").addHeader("Origin", "http://127.0.0.1:" + node.httpPort())).await();
  }

  private static long usedHeapAfterGc() throws InterruptedException {
    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(200);
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  private static double percentile(double[] sorted, int p) {
    return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p / 100.0 * sorted.length) - 1)];
  }

}
