package io.quarry.app;

import io.quarry.bus.Addresses;
import io.quarry.bus.Bus;
import io.quarry.bus.LocalWorkerStatus;
import io.quarry.bus.WorkerOps;
import io.quarry.testing.FakeGemini;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/** Starts real nodes for tests: port 0, a temporary data directory, built-in defaults unless told otherwise. */
final class TestNodes {

  private TestNodes() {
  }

  static Map<String, String> env(Path dataDir) {
    Map<String, String> env = new HashMap<>();
    env.put("QUARRY_HTTP_PORT", "0");
    env.put("QUARRY_DATA_DIR", dataDir.toString());
    // Several nodes run in one test JVM: each serves metrics only where a test asks for it, on a port of its own.
    env.put("QUARRY_METRICS_PORT", "0");
    // Tests change files between queries and expect every use to ask the origin, as before the freshness window:
    // FreshnessTest runs the default window, and the jar nodes of the integration tests run every default.
    env.put("QUARRY_WORKER_FRESH_FOR_MS", "0");
    // One worker process starts with the node (others as queries need them), and ChatHarness waits for it: tests
    // await a turn's events or a page's state for seconds, which a worker started by the first SQL can take on a
    // loaded machine. WorkerProcessTest and the jar nodes of the integration tests start theirs on demand.
    env.put("QUARRY_LOCAL_WORKERS_KEEP_WARM", "1");
    // A worker's warm-up saves the first query a quarter of a second and cost every worker start about a CPU-second
    // on a test JVM's settings (C1 only, before workers shared a class archive): the suite starts some 200.
    // WorkerProcessTest runs it as by default; WarmupTest and bench/run.sh cold test what it does.
    env.put("QUARRY_WORKER_WARM_UP", "false");
    return env;
  }

  /**
   * A server as a program's client meets it: people sign in with passwords, one worker process, files from the tests'
   * loopback server, and {@code gemini} as the model, asked once (no retries).
   */
  static Map<String, String> programsEnv(Path dataDir, FakeGemini gemini) {
    Map<String, String> env = env(dataDir);
    env.put("QUARRY_AUTH_MODE", "password");
    env.put("QUARRY_LOCAL_WORKERS", "1");
    env.put("QUARRY_ALLOW_PRIVATE_NETWORKS", "true");
    env.put("GEMINI_API_KEY", "test-key");
    env.put("GEMINI_BASE_URL", gemini.baseUrl());
    env.put("QUARRY_LLM_RETRIES", "0");
    return env;
  }

  /**
   * The cluster section an application outside Quarry joins {@link io.quarry.testing.OwnCluster} with, its member
   * listening from the cluster's own ports on. Without them it took one at 5701 and up, among the private clusters of
   * the other forks' nodes: once it left, one of those took its port, and the members it had left behind kept
   * connecting there and being refused at that member's gate, 18,000 times in 45 s of BusTlsTest's end.
   */
  static JsonObject clusterSection(Map<String, String> env) {
    return new JsonObject().put("name", env.get("QUARRY_CLUSTER_NAME")).put("host", "127.0.0.1")
        .put("port", Integer.parseInt(env.get("QUARRY_CLUSTER_PORT")))
        .put("members", env.get("QUARRY_CLUSTER_MEMBERS"));
  }

  /** The single number a query over the node's SQLite file answers (a count), read with plain JDBC. */
  static long sqlite(Path dataDir, String sql) throws java.sql.SQLException {
    try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + dataDir.resolve("quarry.db"));
         java.sql.ResultSet rs = c.createStatement().executeQuery(sql)) {
      return rs.next() ? rs.getLong(1) : -1;
    }
  }

  /** A request with {@code body} sent exactly as its text (malformed bodies too), or none when null. */
  static HttpResponse<Buffer> send(WebClient client, HttpMethod method, String path, Object body) {
    var request = client.request(method, path);
    return (body == null ? request.send()
        : request.putHeader("Content-Type", "application/json").sendBuffer(Buffer.buffer(body.toString()))).await();
  }

  /**
   * Waits until {@code count} of the node's worker processes (at most as many as it has; none for a node without) are
   * ready: those it keeps warm start with it, and it is ready before them; the others start when queries need them.
   * Events from before the status was read are kept.
   */
  static void awaitWorkersReady(Node node, int count, long seconds) {
    if (count == 0) {
      return;
    }
    try (EventRecorder events = EventRecorder.local(node, Addresses.WORKER_LOCAL_EVENTS)) {
      Bus bus = new Bus(node.vertx());
      LocalWorkerStatus.Pool pool = WorkerOps.LOCAL_STATUS.call(bus, null).otherwiseEmpty().await();
      while (pool != null && pool.workers().stream().filter(w -> w.state().equals("ready")).count()
          < Math.min(count, pool.count())) {
        events.next(e -> e.getString("state").equals("ready"), seconds);
        pool = WorkerOps.LOCAL_STATUS.call(bus, null).await();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  static Node start(Path dataDir, String... argv) {
    return start(env(dataDir), dataDir, argv);
  }

  /**
   * A node and the worker processes it keeps warm ({@code QUARRY_LOCAL_WORKERS_KEEP_WARM}), ready: the node is ready
   * before them, and a test's first add or query must not wait out a worker's start under load (its schema read
   * answers within 30 s).
   */
  static Node startWarm(Map<String, String> env, Path dataDir, String... argv) {
    Node node = start(env, dataDir, argv);
    awaitWorkersReady(node, Integer.parseInt(env.getOrDefault("QUARRY_LOCAL_WORKERS_KEEP_WARM", "0")), 120);
    return node;
  }

  static Node start(Map<String, String> env, Path dataDir, String... argv) {
    String[] withConfig = new String[argv.length + 2];
    withConfig[0] = "--config";
    withConfig[1] = dataDir.resolve("absent-config.json").toString();
    System.arraycopy(argv, 0, withConfig, 2, argv.length);
    Map<String, String> withoutMetrics = new HashMap<>(env);
    withoutMetrics.putIfAbsent("QUARRY_METRICS_PORT", "0");
    WorkerClassPath.use(withoutMetrics);
    return Launcher.start(withoutMetrics, withConfig).await();
  }
}
