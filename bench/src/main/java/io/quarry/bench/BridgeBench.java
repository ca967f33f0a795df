package io.quarry.bench;

import io.quarry.app.Launcher;
import io.quarry.app.Node;
import io.quarry.bus.ApiOps;
import io.quarry.bus.Bus;
import io.quarry.bus.Scopes.UserRef;
import io.quarry.bus.StorageOps;
import io.quarry.testing.BridgeClient;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the event-bus bridge costs a request, on loopback only: a public operation ({@code api.usage.get}, which asks
 * storage) sent by an application on the bus (the baseline, the same operation without the bridge) and sent over the
 * bridge by a TCP client in another Vert.x, one at a time (p50, p99) and 32 at once (requests per second). With
 * {@code sql}: a query ({@code select 1}) on the bus, the bridge and MCP ({@link McpSqlBench}).
 */
public final class BridgeBench {

  private static final int WARM = 2_000;
  private static final int SEQUENTIAL = 5_000;
  private static final int CONCURRENT = 20_000;
  private static final int IN_FLIGHT = 32;

  public static void main(String[] args) throws Exception {
    Path work = Scratch.dir("quarry-bridge-bench");
    int port = io.quarry.testing.JarCommand.freePort();
    Map<String, String> env = new HashMap<>();
    env.put("QUARRY_HTTP_PORT", "0");
    env.put("QUARRY_DATA_DIR", work.toString());
    env.put("QUARRY_AUTH_MODE", "password");
    env.put("QUARRY_LOCAL_WORKERS", "0");
    env.put("QUARRY_BRIDGE_PORT", String.valueOf(port));
    // A benchmark's one token sends tens of thousands of requests: its pace is not what is measured.
    env.put("QUARRY_CHAT_TOKEN_REQUESTS_PER_MINUTE", "100000000");
    env.put("QUARRY_CHAT_TOKEN_BURST", "1000000");
    boolean sql = args.length > 0 && args[0].equals("sql");
    if (sql) {
      env.put("QUARRY_LOCAL_WORKERS", "1");
      env.put("QUARRY_MCP_ENABLED", "true");
    }
    Node node = Launcher.start(env, "--config", work.resolve("none.json").toString()).await();
    Vertx client = Vertx.vertx();
    try {
      Bus bus = new Bus(node.vertx());
      String email = "bench@example.com";
      String invite = StorageOps.INVITE_CREATE.call(bus, null).await().code();
      String user = StorageOps.USER_CREATE.call(bus, new StorageOps.NewUser(email, "x", invite)).await().id();
      String token = StorageOps.TOKEN_CREATE.call(bus, new StorageOps.NewToken(email)).await().token();
      if (args.length > 0 && args[0].equals("frames")) {
        unfinishedFrames(client, port, bus, token);
        return;
      }
      BridgeClient bridge = BridgeClient.connect(client, port);
      ok(bridge.request("quarry.bridge.login", new JsonObject().put("token", token))).await();
      if (sql) {
        McpSqlBench.run(bus, bridge, client, node.httpPort(), user, token);
        return;
      }

      System.out.printf(Locale.ROOT, "%napi.usage.get round trip, %d cores%n", Runtime.getRuntime().availableProcessors());
      sequential("bus (baseline)", WARM, () -> ApiOps.USAGE_GET.call(bus, new UserRef(user)).mapEmpty());
      sequential("bridge", WARM, () -> ok(bridge.request(ApiOps.USAGE_GET.address(), new JsonObject())));
      double[] onBus = sequential("bus (baseline)", SEQUENTIAL,
          () -> ApiOps.USAGE_GET.call(bus, new UserRef(user)).mapEmpty());
      double[] overBridge = sequential("bridge", SEQUENTIAL,
          () -> ok(bridge.request(ApiOps.USAGE_GET.address(), new JsonObject())));
      System.out.printf(Locale.ROOT, "bridge / bus: p50 %.2f×, p99 %.2f×%n", overBridge[0] / onBus[0],
          overBridge[1] / onBus[1]);
      double busRate = concurrent("bus (baseline)", () -> ApiOps.USAGE_GET.call(bus, new UserRef(user)).mapEmpty());
      double bridgeRate = concurrent("bridge",
          () -> ok(bridge.request(ApiOps.USAGE_GET.address(), new JsonObject())));
      System.out.printf(Locale.ROOT, "bridge / bus throughput: %.2f×%n", bridgeRate / busRate);
    } finally {
      client.close().await();
      node.stop().await();
    }
  }

  /**
   * What unfinished frames make the node hold ({@code bench/run.sh bridge frames}): 200 connections each start a 1 MiB
   * frame and send 1,000,000 bytes of it, first all of one token's, then each of another user's; the heap in use
   * (after a full collection) before and after, and how many connections the bridge kept.
   */
  private static void unfinishedFrames(Vertx client, int port, Bus bus, String token) throws Exception {
    System.out.printf(Locale.ROOT, "%n200 connections, each with an unfinished 1 MiB frame (1,000,000 bytes sent)%n");
    List<String> tokens = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      String email = "frames-" + i + "@example.com";
      String invite = StorageOps.INVITE_CREATE.call(bus, null).await().code();
      StorageOps.USER_CREATE.call(bus, new StorageOps.NewUser(email, "x", invite)).await();
      tokens.add(StorageOps.TOKEN_CREATE.call(bus, new StorageOps.NewToken(email)).await().token());
    }
    holdFrames("one token", client, port, Collections.nCopies(200, token));
    holdFrames("200 users", client, port, tokens);
  }

  private static void holdFrames(String label, Vertx client, int port, List<String> tokens) throws Exception {
    long before = heapInUse();
    List<BridgeClient> open = new ArrayList<>();
    int signedIn = 0;
    for (String token : tokens) {
      BridgeClient connection = BridgeClient.connect(client, port);
      open.add(connection);
      if ("message".equals(connection.request("quarry.bridge.login", new JsonObject().put("token", token))
          .await().getString("type"))) {
        signedIn++;
        connection.writeRaw(io.vertx.core.buffer.Buffer.buffer().appendInt(1 << 20).appendString("{")
            .appendString(" ".repeat(999_999)));
      }
    }
    client.timer(2_000).await();
    long kept = open.stream().filter(c -> !c.closed().isComplete()).count();
    long after = heapInUse();
    System.out.printf(Locale.ROOT, "  %-10s signed in %d, still open %d; heap in use %d MB -> %d MB (+%d MB)%n",
        label, signedIn, kept, before >> 20, after >> 20, (after - before) >> 20);
    open.forEach(BridgeClient::close);
    client.timer(500).await();
  }

  private static long heapInUse() {
    System.gc();
    Runtime runtime = Runtime.getRuntime();
    return runtime.totalMemory() - runtime.freeMemory();
  }

  /** Milliseconds at p50 and p99 of {@code n} requests one after another. */
  static double[] sequential(String label, int n, java.util.function.Supplier<Future<Void>> request) {
    List<Double> ms = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      long start = System.nanoTime();
      request.get().await();
      ms.add((System.nanoTime() - start) / 1e6);
    }
    Collections.sort(ms);
    double p50 = ms.get(n / 2);
    double p99 = ms.get(n * 99 / 100);
    System.out.printf(Locale.ROOT, "  %-16s %6d one at a time: p50 %.3f ms, p99 %.3f ms%n", label, n, p50, p99);
    return new double[] {p50, p99};
  }

  /** Requests per second with {@link #IN_FLIGHT} always waiting. */
  private static double concurrent(String label, java.util.function.Supplier<Future<Void>> request) {
    Promise<Void> done = Promise.promise();
    AtomicInteger sent = new AtomicInteger();
    AtomicInteger answered = new AtomicInteger();
    long start = System.nanoTime();
    Runnable[] next = new Runnable[1];
    next[0] = () -> {
      if (sent.getAndIncrement() >= CONCURRENT) {
        return;
      }
      request.get().onComplete(r -> {
        if (answered.incrementAndGet() == CONCURRENT) {
          done.tryComplete();
        } else {
          next[0].run();
        }
      });
    };
    for (int i = 0; i < IN_FLIGHT; i++) {
      next[0].run();
    }
    done.future().await();
    double perSecond = CONCURRENT / ((System.nanoTime() - start) / 1e9);
    System.out.printf(Locale.ROOT, "  %-16s %6d, %d at once: %.0f requests/s%n", label, CONCURRENT, IN_FLIGHT,
        perSecond);
    return perSecond;
  }

  /** An answer's frame as a bench needs it: a failure for an err frame. */
  static Future<Void> ok(Future<JsonObject> answer) {
    return answer.compose(frame -> "err".equals(frame.getString("type"))
        ? Future.failedFuture(frame.encode()) : Future.succeededFuture());
  }
}
