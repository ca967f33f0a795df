package io.quarry.bench;

import io.quarry.app.Launcher;
import io.quarry.app.Node;
import io.quarry.testing.FakeGemini;
import io.quarry.testing.FakeModel;
import io.quarry.testing.FakeOpenAI;
import io.quarry.testing.JarCommand;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Issue 4's benchmark, on loopback only: token relay latency from the fake model server writing a chunk to the
 * browser's WebSocket receiving it (both in this JVM, one clock), through the jar's node in a JVM of its own, p50 and
 * p99, with 1 and with 200 concurrent streams, for both providers side by side (Gemini's API, and OpenAI's Chat
 * Completions: issue 39) under each collector, with what the node's collector did meanwhile (the garbage a token costs
 * it, its pauses); the stop latency and the heap an open WebSocket costs.
 */
public final class ChatBench {

  /** Chunks each stream sends once all stream together (besides its first). */
  private static final int CHUNKS = 50;
  /** Held for the whole run: a client nobody references may be reclaimed, evicting its connections. */
  private static WebSocketClient sockets;
  private static final long CHUNK_GAP_MS = 40;
  private static final int WARMING_ROUNDS = 3;
  /** Rounds of 200 streams whose latencies, together, make the warm figures. */
  private static final int MEASURED_ROUNDS = 3;

  /**
   * The node's JVMs unless told others: the JVM's default collector (G1), as Operations in the README gives it, then
   * ZGC. The node runs from the jar in a JVM of its own, as it does in production: in this JVM, its collector would
   * also collect what the fake model servers and the 200 browsers' sockets allocate, which a node never holds.
   */
  private static final String NODE_JVMS = "-Xmx1g;-XX:+UseZGC -Xmx1g";
  private static final Pattern COLLECTOR = Pattern.compile("-XX:\\+Use(\\w+?)GC");

  /** The node's JVMs to compare, separated by {@code ;}, each its options separated by blanks. */
  private static List<List<String>> nodeJvms(String given) {
    return Arrays.stream(given.split(";")).map(String::strip).filter(jvm -> !jvm.isEmpty())
        .map(jvm -> List.of(jvm.split("\\s+"))).toList();
  }

  /** A JVM's name in the table: its collector (G1 unless named), and what else it is given but heap and logging. */
  private static String label(List<String> jvm) {
    String collector = jvm.stream().map(COLLECTOR::matcher).filter(Matcher::matches)
        .map(m -> m.group(1).equals("Z") ? "ZGC" : m.group(1)).findFirst().orElse("G1");
    List<String> more = jvm.stream().filter(o -> !o.startsWith("-Xmx") && !o.startsWith("-Xlog")
        && !COLLECTOR.matcher(o).matches()).toList();
    return more.isEmpty() ? collector : collector + " " + String.join(" ", more);
  }

  /**
   * Arguments: the jar whose node relays (app/target/quarry.jar by default), then the node's JVMs ({@link #nodeJvms};
   * G1 and ZGC by default).
   */
  public static void main(String[] args) throws Exception {
    Path jar = Path.of(args.length > 0 ? args[0] : "app/target/quarry.jar");
    List<List<String>> nodeJvms = nodeJvms(args.length > 1 ? args[1] : NODE_JVMS);
    Vertx outside = Vertx.vertx();
    sockets = outside.createWebSocketClient(new WebSocketClientOptions().setMaxConnections(2000));
    FakeGemini gemini = FakeGemini.start(outside);
    FakeOpenAI openai = FakeOpenAI.start(outside);
    System.out.printf(Locale.ROOT, "%nToken relay latency (fake model server write → WebSocket receive), %d cores%n",
        Runtime.getRuntime().availableProcessors());
    List<String> table = new ArrayList<>();
    try {
      for (List<String> jvm : nodeJvms) {
        String collector = label(jvm);
        for (FakeModel<?> fake : List.<FakeModel<?>>of(gemini, openai)) {
          System.out.printf(Locale.ROOT, "%nThe node: java %s -jar %s (%s)%n", String.join(" ", jvm), jar,
              fake.provider());
          Path work = Scratch.dir("quarry-chat-bench");
          Map<String, String> env = settings(fake);
          int metricsPort = JarCommand.freePort();
          env.put("QUARRY_METRICS_PORT", String.valueOf(metricsPort));
          WebClient metrics = WebClient.create(outside, new WebClientOptions().setDefaultHost("127.0.0.1")
              .setDefaultPort(metricsPort));
          try (BenchJarNode node = BenchJarNode.start(jar, jvm, env, work, outside, 5)) {
            table.addAll(rounds(outside, fake, node.client, node.port, metrics, collector, jar));
          } finally {
            metrics.close();
          }
        }
      }
      System.out.printf(Locale.ROOT, "%nSide by side (warm):%n%s%n", String.join("\n", table));
      // The heap an open socket costs is read in this JVM: a node of its own, here.
      Node node = node(gemini);
      try {
        WebClient client = WebClient.create(node.vertx(), new WebClientOptions().setDefaultHost("127.0.0.1")
            .setDefaultPort(node.httpPort()));
        stopLatency(outside, gemini, client, node.httpPort(), 30);
        heapPerSocket(outside, node.httpPort(), 1000);
      } finally {
        node.stop().await();
      }
    } finally {
      outside.close().await();
    }
  }

  /**
   * A cold stream and round, warming rounds, then the warm figures: the table's three lines, the last what the node's
   * collector did meanwhile (read from its metrics), since its pauses hold up every token in flight.
   */
  private static List<String> rounds(Vertx outside, FakeModel<?> fake, WebClient client, int port, WebClient metrics,
      String collector, Path jar) throws Exception {
    print(fake, 1, "cold JIT", relay(outside, fake, client, port, 1));
    print(fake, 200, "cold JIT", relay(outside, fake, client, port, 200));
    // The JIT is still compiling after one round of 200 streams (its threads took most of the next round's CPU).
    for (int round = 0; round < WARMING_ROUNDS; round++) {
      print(fake, 200, "warming", relay(outside, fake, client, port, 200));
    }
    String single = String.format(Locale.ROOT, "   %-3s %-7s 1 stream    %s", collector, fake.provider(),
        print(fake, 1, "warm", relay(outside, fake, client, port, 1)));
    List<Double> warm = new ArrayList<>();
    NodeGc before = NodeGc.read(metrics);
    for (int round = 0; round < MEASURED_ROUNDS; round++) {
      List<Double> latencies = relay(outside, fake, client, port, 200);
      print(fake, 200, "round " + (round + 1), latencies);
      warm.addAll(latencies);
    }
    // Every stream's tokens, its first (not timed) too; the node's allocation includes the turns' own work.
    String gc = NodeGc.read(metrics).since(before, (long) MEASURED_ROUNDS * 200 * (CHUNKS + 1), "token");
    double[] sorted = warm.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    BenchSummary.row("token relay p99 at 200 streams, " + fake.provider() + ", " + collector + " (goal ≤ 5 ms)", jar,
        String.format(Locale.ROOT, "%.2f ms (p50 %.2f)", percentile(sorted, 99), percentile(sorted, 50)));
    BenchSummary.row("the node meanwhile, " + fake.provider() + ", " + collector, jar, gc);
    String line = String.format(Locale.ROOT, "   %-3s %-7s 200 streams %s", collector, fake.provider(),
        print(fake, 200, "warm", warm));
    System.out.printf(Locale.ROOT, "   the node meanwhile: %s%n", gc);
    return List.of(single, line, String.format(Locale.ROOT, "   %-3s %-7s the node: %s", collector, fake.provider(),
        gc));
  }

  /** A node in this JVM whose chat goes to {@code fake}. */
  private static Node node(FakeModel<?> fake) throws Exception {
    Path work = Scratch.dir("quarry-chat-bench");
    Map<String, String> env = settings(fake);
    env.put("QUARRY_DATA_DIR", work.toString());
    env.put("QUARRY_HTTP_PORT", "0");
    return Launcher.start(env, "--config", work.resolve("none.json").toString()).await();
  }

  /** A bench node's settings: its chat going to {@code fake}. */
  private static Map<String, String> settings(FakeModel<?> fake) {
    Map<String, String> env = new HashMap<>();
    env.put("QUARRY_METRICS_PORT", "0");
    env.put("QUARRY_LLM_PROVIDER", fake.provider());
    env.put("GEMINI_API_KEY", "bench");
    env.put("OPENAI_API_KEY", "bench");
    env.put(fake.provider().equals("openai") ? "OPENAI_BASE_URL" : "GEMINI_BASE_URL", fake.baseUrl());
    // One local user stands for 200 people streaming at once: the per-user caps on answers being written at once and
    // on changes per minute (3 and 100 at once) would refuse all but the first few questions.
    env.put("QUARRY_LLM_MAX_TURNS_PER_USER", "1000");
    env.put("QUARRY_CHAT_WRITE_BURST", "100000");
    env.put("QUARRY_CHAT_WRITES_PER_MINUTE", "100000");
    return env;
  }

  /**
   * The latencies of one round. Every stream sends its first chunk, then waits until all have (their
   * questions sent at once, so the turns start side by side); from then on all {@code streams} stream together, each
   * at one chunk every {@link #CHUNK_GAP_MS}, their phases spread evenly over that gap as independent streams' are
   * (started in step, every chunk of all streams would arrive in one burst). Only the chunks sent while all stream
   * are timed: the turns' start is not the relay.
   */
  private static List<Double> relay(Vertx outside, FakeModel<?> fake, WebClient client, int port, int streams)
      throws Exception {
    String gate = "together-" + UUID.randomUUID();
    List<FakeModel.Script> scripts = new ArrayList<>();
    for (int s = 0; s < streams; s++) {
      FakeModel.Script script = fake.next().text("s" + s + "c0 ").gate(gate).pause(1 + s * CHUNK_GAP_MS / streams);
      for (int c = 1; c <= CHUNKS; c++) {
        script.text("s" + s + "c" + c + " ").pause(CHUNK_GAP_MS);
      }
      scripts.add(script.usage(10, CHUNKS + 1));
    }
    List<Double> latencies = new ArrayList<>();
    CountDownLatch started = new CountDownLatch(streams);
    CountDownLatch complete = new CountDownLatch(streams);
    WebSocket ws = socket(outside, port);
    ws.textMessageHandler(text -> {
      long now = System.nanoTime();
      JsonObject event = new JsonObject(text);
      if ("chat_token".equals(event.getString("type"))) {
        String token = event.getString("token").strip();
        int s = Integer.parseInt(token.substring(1, token.indexOf('c')));
        int c = Integer.parseInt(token.substring(token.indexOf('c') + 1));
        if (c == 0) {
          started.countDown();
          return;
        }
        synchronized (latencies) {
          latencies.add((now - scripts.get(s).sentNanos().get(c)) / 1e6);
        }
      } else if ("chat_complete".equals(event.getString("type"))) {
        complete.countDown();
      }
    });
    List<Future<String>> asked = new ArrayList<>();
    for (int s = 0; s < streams; s++) {
      asked.add(client.post("/api/conversations").send()
          .map(created -> expect(created, 201).bodyAsJsonObject().getString("id"))
          .compose(id -> client.post("/api/conversations/" + id + "/messages")
              .sendJsonObject(new JsonObject().put("content", "go")).map(sent -> expect(sent, 202)).map(id)));
    }
    Future.all(asked).await();
    if (!started.await(120, TimeUnit.SECONDS)) {
      throw new IllegalStateException("streams did not start");
    }
    fake.release(gate);
    if (!complete.await(120, TimeUnit.SECONDS)) {
      throw new IllegalStateException("streams did not complete");
    }
    ws.close().await();
    // An account keeps at most 1,000 conversations: the rounds' would add up past that.
    for (Future<String> id : asked) {
      expect(client.delete("/api/conversations/" + id.result()).send().await(), 204);
    }
    return latencies;
  }

  /** The response, when it has the status expected: a refused question would leave a stream that never starts. */
  private static HttpResponse<Buffer> expect(HttpResponse<Buffer> response, int status) {
    if (response.statusCode() != status) {
      throw new IllegalStateException("HTTP " + response.statusCode() + ": " + response.bodyAsString());
    }
    return response;
  }

  /** Prints and returns the latencies' line. */
  private static String print(FakeModel<?> fake, int streams, String label, List<Double> latencies) {
    double[] sorted = latencies.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    String line = String.format(Locale.ROOT, "%6d tokens   p50 %7.3f ms   p99 %7.3f ms   max %7.3f ms", sorted.length,
        percentile(sorted, 50), percentile(sorted, 99), sorted[sorted.length - 1]);
    System.out.printf(Locale.ROOT, "   %-7s %3d concurrent stream(s), %-8s %s%n", fake.provider(), streams, label + ":",
        line);
    return line;
  }

  /** From POST /stop to the fake Gemini seeing its stalled stream closed. */
  private static void stopLatency(Vertx outside, FakeGemini gemini, WebClient client, int port, int runs)
      throws Exception {
    WebSocket ws = socket(outside, port);
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

  private static void heapPerSocket(Vertx outside, int port, int count) throws Exception {
    long before = usedHeapAfterGc();
    List<WebSocket> sockets = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      sockets.add(socket(outside, port));
    }
    long after = usedHeapAfterGc();
    System.out.printf(Locale.ROOT, "%nHeap per open WebSocket: %.1f KB (%d sockets; server and client ends in one JVM)%n",
        (after - before) / 1024.0 / count, count);
    for (WebSocket ws : sockets) {
      ws.close().await();
    }
  }

  private static WebSocket socket(Vertx outside, int port) {
    return sockets.connect(new WebSocketConnectOptions().setHost("127.0.0.1")
        .setPort(port).setURI("/ws").addHeader("Origin", "http://127.0.0.1:" + port)).await();
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
