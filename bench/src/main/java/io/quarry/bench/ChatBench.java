package io.quarry.bench;

import io.quarry.app.Launcher;
import io.quarry.app.Node;
import io.quarry.testing.FakeGemini;
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
 * Issue 4's benchmark, on loopback only: token relay latency from the fake Gemini writing a chunk to the
 * browser's WebSocket receiving it (same JVM, same clock), p50 and p99, with 1 and with 200 concurrent
 * streams; and the heap an open WebSocket costs.
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
    Path work = Scratch.dir("quarry-chat-bench");
    Map<String, String> env = new HashMap<>();
    env.put("QUARRY_HTTP_PORT", "0");
    env.put("QUARRY_DATA_DIR", work.toString());
    env.put("GEMINI_API_KEY", "bench");
    env.put("GEMINI_BASE_URL", gemini.baseUrl());
    // One local user stands for 200 people streaming at once: the per-user caps on answers being written at once and
    // on changes per minute (3 and 100 at once) would refuse all but the first few questions.
    env.put("QUARRY_LLM_MAX_TURNS_PER_USER", "1000");
    env.put("QUARRY_CHAT_WRITE_BURST", "100000");
    env.put("QUARRY_CHAT_WRITES_PER_MINUTE", "100000");
    Node node = Launcher.start(env, "--config", work.resolve("none.json").toString()).await();
    try {
      WebClient client = WebClient.create(node.vertx(), new WebClientOptions().setDefaultHost("127.0.0.1")
          .setDefaultPort(node.httpPort()));
      System.out.printf(Locale.ROOT, "%nToken relay latency (fake Gemini write → WebSocket receive), %d cores%n",
          Runtime.getRuntime().availableProcessors());
      relay(outside, gemini, client, node, 1, "cold JIT");
      relay(outside, gemini, client, node, 1, "warm");
      relay(outside, gemini, client, node, 200, "warm");
      stopLatency(outside, gemini, client, node, 30);
      heapPerSocket(outside, node, 1000);
    } finally {
      node.stop().await();
      outside.close().await();
    }
  }

  private static void relay(Vertx outside, FakeGemini gemini, WebClient client, Node node, int streams, String label)
      throws Exception {
    List<FakeGemini.Script> scripts = new ArrayList<>();
    for (int s = 0; s < streams; s++) {
      FakeGemini.Script script = gemini.next();
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
    System.out.printf(Locale.ROOT, "   %3d concurrent stream(s), %-8s %6d tokens   p50 %7.3f ms   p99 %7.3f ms   max %7.3f ms%n",
        streams, label + ":", sorted.length, percentile(sorted, 50), percentile(sorted, 99), sorted[sorted.length - 1]);
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
