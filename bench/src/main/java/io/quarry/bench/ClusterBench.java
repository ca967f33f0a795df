package io.quarry.bench;

import io.quarry.testing.BusCertificates;
import io.quarry.testing.FakeGemini;
import io.quarry.testing.JarCommand;
import io.quarry.testing.JarNode;
import io.quarry.testing.LoadClient;
import io.quarry.testing.ParquetFixtures;
import io.quarry.testing.ParquetServer;
import io.quarry.testing.PostgresServer;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Issue 17's benchmark, on loopback only, every node a JVM of its own from the jar: questions (fake Gemini, each an
 * execute_sql round and an answer) and queries (the SQL runner, a group-by over 1 M rows) per second with one node
 * of each role — web with dataset, llm, storage on PostgreSQL, worker — then with two of each, both clusters with
 * bus TLS; and what bus TLS costs a query's round trip: a cluster with TLS and one without, side by side, queried in
 * turn. On a 2-core machine eight JVMs share the same two cores: two of each role adds no cores, only failover.
 */
public final class ClusterBench {

  static final int CONVERSATIONS = 20;
  static final int QUESTIONS_EACH = 5;
  static final int QUERY_THREADS = 16;
  static final int QUERIES = 192;
  static final int ROUND_TRIPS = 300;
  static final String GROUP_BY = "SELECT g, count(*) AS n, avg(v) AS mean FROM table1 GROUP BY g ORDER BY g";
  static final String TRIVIAL = "SELECT count(*) AS n FROM table1";

  private final Path work;
  private final Vertx outside = Vertx.vertx();
  private final PostgresServer postgres = PostgresServer.shared();
  private final BusCertificates ca;
  private final Path jar;
  private ParquetServer files;
  private FakeGemini gemini;

  private ClusterBench(Path jar, Path work) throws Exception {
    this.jar = jar;
    this.work = work;
    this.ca = BusCertificates.authority(work.resolve("certs"), "bench");
  }

  public static void main(String[] args) throws Exception {
    Path jar = Path.of(args.length > 0 ? args[0] : "app/target/quarry.jar");
    boolean tlsOnly = args.length > 1 && "tls".equals(args[1]);
    ClusterBench bench = new ClusterBench(jar, Scratch.dir("quarry-cluster-bench"));
    try {
      bench.run(tlsOnly);
    } finally {
      bench.outside.close().await();
    }
  }

  /** {@code tlsOnly}: only what bus TLS costs. */
  private void run(boolean tlsOnly) throws Exception {
    files = ParquetServer.start(outside);
    Path data = work.resolve("events.parquet");
    if (!Files.exists(data)) {
      ParquetFixtures.create(data, "SELECT i AS id, i % 500 AS g, random() AS v FROM range(1000000) t(i)");
    }
    files.route("/events.parquet").file(data);
    gemini = FakeGemini.start(outside);
    gemini.respondWith(ClusterBench::modelTurn);
    System.out.printf(Locale.ROOT, "%nQuarry cluster benchmark, %d cores; every node a JVM from %s%n",
        Runtime.getRuntime().availableProcessors(), jar);
    if (!tlsOnly) {
      throughputs();
    }
    tlsCost();
  }

  private void throughputs() throws Exception {
    Throughput one = throughput(1);
    Throughput two = throughput(2);
    System.out.printf(Locale.ROOT, "%n%-34s %18s %18s %8s%n", "", "1 of each role", "2 of each role", "ratio");
    row("questions/s (" + CONVERSATIONS + " conversations)", one.questions, two.questions);
    row("  question p50 ms", one.questionP50, two.questionP50);
    row("group-by queries/s (" + QUERY_THREADS + " at once)", one.queries, two.queries);
    row("  query p50 ms", one.queryP50, two.queryP50);
    System.out.printf(Locale.ROOT, "  failed: %s / %s%n", one.failures, two.failures);
  }

  private static void row(String label, double one, double two) {
    System.out.printf(Locale.ROOT, "%-34s %18.1f %18.1f %7.2f×%n", label, one, two, two / one);
  }

  /** What one cluster of {@code each} nodes per role answers per second. */
  private Throughput throughput(int each) throws Exception {
    try (Cluster cluster = Cluster.start(this, "x" + each, each, true, 5701)) {
      LoadClient browsers = new LoadClient(outside, cluster.webPorts);
      List<String> conversations = new ArrayList<>();
      for (int i = 0; i < CONVERSATIONS; i++) {
        conversations.add(browsers.conversation(files.url("/events.parquet")));
      }
      browsers.send("POST", "/api/conversations/" + conversations.get(0) + "/query", new JsonObject().put("sql",
          GROUP_BY)); // the first fetch of the file, not measured
      Throughput result = new Throughput();
      LoadStats questions = questions(browsers, conversations);
      LoadStats queries = queries(browsers, conversations);
      result.questions = questions.perSecond();
      result.questionP50 = questions.p50();
      result.queries = queries.perSecond();
      result.queryP50 = queries.p50();
      result.failures = "questions " + questions.failures() + ", queries " + queries.failures();
      browsers.closing();
      return result;
    }
  }

  private static LoadStats questions(LoadClient browsers, List<String> conversations) throws Exception {
    LoadStats stats = new LoadStats(CONVERSATIONS * QUESTIONS_EACH, null);
    ExecutorService askers = Executors.newFixedThreadPool(CONVERSATIONS);
    List<Future<?>> running = new ArrayList<>();
    for (String conversation : conversations) {
      running.add(askers.submit(() -> {
        for (int q = 0; q < QUESTIONS_EACH; q++) {
          long asked = System.nanoTime();
          LoadClient.Asked one = browsers.ask(conversation, "How many events? (" + q + ")");
          stats.answered(asked, one.outcome() == LoadClient.Outcome.ANSWERED ? 200 : 500);
        }
      }));
    }
    for (Future<?> f : running) {
      f.get(10, TimeUnit.MINUTES);
    }
    askers.shutdown();
    return stats.done();
  }

  private static LoadStats queries(LoadClient browsers, List<String> conversations) throws Exception {
    LoadStats stats = new LoadStats(QUERIES, null);
    ExecutorService runners = Executors.newFixedThreadPool(QUERY_THREADS);
    List<Future<?>> running = new ArrayList<>();
    for (int t = 0; t < QUERY_THREADS; t++) {
      String conversation = conversations.get(t % conversations.size());
      running.add(runners.submit(() -> {
        for (int q = 0; q < QUERIES / QUERY_THREADS; q++) {
          long sent = System.nanoTime();
          int status = browsers.send("POST", "/api/conversations/" + conversation + "/query",
              new JsonObject().put("sql", GROUP_BY)).statusCode();
          stats.answered(sent, status);
        }
      }));
    }
    for (Future<?> f : running) {
      f.get(10, TimeUnit.MINUTES);
    }
    runners.shutdown();
    return stats.done();
  }

  /** A trivial query's round trip on a cluster with bus TLS and one without, running side by side, in turn. */
  private void tlsCost() throws Exception {
    try (Cluster secure = Cluster.start(this, "tls", 1, true, 5701);
        Cluster clear = Cluster.start(this, "clear", 1, false, 5801)) {
      LoadClient withTls = new LoadClient(outside, secure.webPorts);
      LoadClient without = new LoadClient(outside, clear.webPorts);
      String a = withTls.conversation(files.url("/events.parquet"));
      String b = without.conversation(files.url("/events.parquet"));
      List<Double> tls = new ArrayList<>();
      List<Double> plain = new ArrayList<>();
      for (int i = 0; i < ROUND_TRIPS + 50; i++) {
        double t = roundTrip(withTls, a);
        double p = roundTrip(without, b);
        if (i >= 50) { // the first 50 warm the JIT and the caches
          tls.add(t);
          plain.add(p);
        }
      }
      double withMs = LoadStats.median(tls);
      double withoutMs = LoadStats.median(plain);
      System.out.printf(Locale.ROOT, "%nA trivial query's round trip (HTTP → web → bus → worker → bus → web),"
          + " medians of %d, in turn:%n", ROUND_TRIPS);
      System.out.printf(Locale.ROOT, "  bus in the clear %6.2f ms%n  bus TLS (mutual) %6.2f ms   %.2f×%n", withoutMs,
          withMs, withMs / withoutMs);
      withTls.closing();
      without.closing();
    }
  }

  private static double roundTrip(LoadClient browsers, String conversation) {
    long sent = System.nanoTime();
    int status = browsers.send("POST", "/api/conversations/" + conversation + "/query",
        new JsonObject().put("sql", TRIVIAL)).statusCode();
    if (status != 200) {
      throw new IllegalStateException("the round trip failed with " + status);
    }
    return (System.nanoTime() - sent) / 1e6;
  }

  /** One model response: a call of execute_sql, or, once its result is in, the answer. */
  private static FakeGemini.Script modelTurn(FakeGemini.Request request) {
    JsonArray contents = request.contents();
    JsonObject last = contents.getJsonObject(contents.size() - 1);
    boolean resultIn = last.getJsonArray("parts").stream()
        .anyMatch(p -> ((JsonObject) p).containsKey("functionResponse"));
    FakeGemini.Script script = new FakeGemini.Script().pause(20);
    return resultIn ? script.text("There are ").text("a million events.").usage(200, 6)
        : script.call("execute_sql", new JsonObject().put("query", TRIVIAL)).usage(150, 9);
  }

  private static final class Throughput {
    double questions;
    double questionP50;
    double queries;
    double queryP50;
    String failures;
  }

  /** One cluster of JVMs from the jar: {@code each} nodes of every role, stopped together. */
  private static final class Cluster implements AutoCloseable {
    final List<JarNode> nodes = new ArrayList<>();
    final List<Integer> webPorts = new ArrayList<>();

    /**
     * {@code port}: where its members' Hazelcast ports start. Two clusters at once on one machine need ranges of their
     * own, or a node that looks for its cluster's members may find only the other's and stay alone.
     */
    static Cluster start(ClusterBench bench, String name, int each, boolean tls, int port) throws Exception {
      Cluster cluster = new Cluster();
      Map<String, String> env = new HashMap<>();
      env.put("QUARRY_CLUSTER_NAME", "quarry-bench-" + name + "-" + UUID.randomUUID());
      env.put("QUARRY_CLUSTER_PORT", String.valueOf(port));
      env.put("QUARRY_CLUSTER_MEMBERS", "127.0.0.1:" + port);
      // The run without TLS measures the bus in the clear, which a node refuses unless told it is meant.
      env.put("QUARRY_CLUSTER_INSECURE", String.valueOf(!tls));
      env.put("QUARRY_STORAGE_BACKEND", "postgres");
      env.put("QUARRY_STORAGE_PORT", String.valueOf(bench.postgres.port()));
      env.put("QUARRY_STORAGE_DATABASE", bench.postgres.newDatabase());
      env.put("QUARRY_STORAGE_USER", PostgresServer.USER);
      env.put("GEMINI_API_KEY", "bench");
      env.put("GEMINI_BASE_URL", bench.gemini.baseUrl());
      env.put("QUARRY_ALLOW_PRIVATE_NETWORKS", "true");
      // The one local user stands for as many people as conversations: what is measured is the cluster, not one
      // user's allowance.
      env.put("QUARRY_LLM_MAX_TURNS_PER_USER", String.valueOf(CONVERSATIONS));
      env.put("QUARRY_DATASET_MAX_QUERIES_PER_USER", "1000");
      env.put("QUARRY_DATASET_MAX_WAITING_QUERIES_PER_USER", "1000");
      env.put("QUARRY_CHAT_WRITE_BURST", "100000");
      env.put("QUARRY_CHAT_WRITES_PER_MINUTE", "100000");
      try {
        for (int i = 1; i <= each; i++) {
          cluster.launch(bench, env, name + "-storage-" + i, "storage", 0, tls);
        }
        cluster.awaitStarted();
        for (int i = 1; i <= each; i++) {
          cluster.launch(bench, env, name + "-worker-" + i, "worker", 0, tls);
          cluster.launch(bench, env, name + "-llm-" + i, "llm", 0, tls);
          int http = JarCommand.freePort();
          cluster.webPorts.add(http);
          cluster.launch(bench, env, name + "-web-" + i, "web,dataset", http, tls);
        }
        cluster.awaitStarted();
      } catch (Exception e) {
        cluster.close();
        throw e;
      }
      return cluster;
    }

    private void launch(ClusterBench bench, Map<String, String> common, String name, String roles, int port,
        boolean tls) throws Exception {
      Map<String, String> env = new HashMap<>(common);
      if (tls) {
        BusCertificates.Identity identity = bench.ca.issue(name);
        env.put("QUARRY_CLUSTER_KEY_FILE", identity.key().toString());
        env.put("QUARRY_CLUSTER_CERT_FILE", identity.cert().toString());
        env.put("QUARRY_CLUSTER_CA_FILE", identity.ca().toString());
      }
      Path data = Files.createDirectories(bench.work.resolve(name));
      env.put("QUARRY_DATA_DIR", data.toString());
      env.put("QUARRY_HTTP_PORT", String.valueOf(port));
      nodes.add(JarNode.launch(bench.jar, data.resolve("node.log"), env, "--cluster", "--roles", roles, "--config",
          data.resolve("absent.json").toString()));
    }

    private void awaitStarted() throws Exception {
      for (JarNode node : nodes) {
        node.awaitStarted(240);
      }
    }

    @Override
    public void close() throws InterruptedException {
      for (JarNode node : nodes) {
        JarCommand.stop(node.process);
      }
    }
  }
}
