package io.quarry.bench;

import static io.quarry.bench.LocalNode.send;

import io.quarry.app.Node;
import io.quarry.bus.DatasetClient;
import io.quarry.bus.QueryRequest;
import io.quarry.bus.QueryResult;
import io.quarry.bus.QueryTimeouts;
import io.quarry.bus.StorageClient;
import io.quarry.bus.WorkerClient;
import io.quarry.testing.ParquetServer;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Where {@link RestBench}'s trivial query spends its time: the same query entered at each layer of a node in this JVM
 * (as {@link LocalNode} starts it, one worker process), the layers measured in turn, round after round, so that all see
 * the same machine. The difference between two layers is what the outer one adds, in time and then in CPU (this JVM's
 * and the worker process's). A statement that reads no table is entered at the first three layers in a conversation
 * without datasets too. {@code bench/run.sh rest-layers}; {@code BENCH_JAVA_OPTS='-Drest.sql=...'} for another
 * statement.
 */
public final class RestLayers {

  /**
   * The statement entered at each layer: {@code -Drest.sql}, or the trivial one of {@link RestBench}. A {@code %d} in
   * it takes a number new at each call, so that every statement is one Quarry has not seen before, as a model's are.
   */
  private static final String SQL = System.getProperty("rest.sql", RestBench.TRIVIAL);
  private static final AtomicLong CALLS = new AtomicLong();
  /** Blocks of calls per layer whose CPU is measured, the layers taking turns; the median block is reported. */
  private static final int CPU_BLOCKS = 5;

  private interface Step {
    void once() throws Exception;
  }

  /** CPU per call, in ms: this JVM's and the worker processes'. */
  private record Cpu(double node, double worker) {
  }

  /** What one call costs this JVM and the worker processes in CPU, over {@code calls} calls one after the other. */
  private static Cpu cpuPerCall(Step step, int calls) throws Exception {
    long node0 = ProcessCpu.self();
    long workers0 = ProcessCpu.children();
    for (int i = 0; i < calls; i++) {
      step.once();
    }
    return new Cpu((ProcessCpu.self() - node0) / 1e6 / calls, (ProcessCpu.children() - workers0) / 1e6 / calls);
  }

  private static String sql() {
    return SQL.contains("%d") ? SQL.replace("%d", Long.toString(CALLS.incrementAndGet())) : SQL;
  }

  public static void main(String[] args) throws Exception {
    int rounds = Integer.getInteger("rest.rounds", 1000);
    Path files = Files.createDirectories(Path.of(System.getProperty("java.io.tmpdir"), "quarry-bench", "cold"));
    ColdBench.generate(files);
    Vertx outside = Vertx.vertx();
    Node node = LocalNode.start(Scratch.dir("quarry-rest-layers"), Map.of());
    try {
      ParquetServer server = ParquetServer.start(outside);
      Map<String, String> tables = new LinkedHashMap<>();
      for (String table : ColdBench.TABLES) {
        server.route("/" + table + ".parquet").file(files.resolve(table + ".parquet")).zeroCopy();
      }
      WebClient client = LocalNode.client(node);
      String conversation = send(client, HttpMethod.POST, "/api/conversations", new JsonObject()).getString("id");
      String base = "/api/conversations/" + conversation;
      String bare = send(client, HttpMethod.POST, "/api/conversations", new JsonObject()).getString("id");
      String bareBase = "/api/conversations/" + bare;
      for (String table : ColdBench.TABLES) {
        tables.put(table, server.url("/" + table + ".parquet"));
        JsonObject added = send(client, HttpMethod.POST, base + "/datasets", new JsonObject().put("url", tables.get(table)));
        send(client, HttpMethod.PATCH, base + "/datasets/" + added.getString("id"), new JsonObject().put("name", table));
      }
      String userId = client.get("/api/me").send().await().bodyAsJsonObject().getString("id");
      WorkerClient worker = new WorkerClient(node.vertx());
      DatasetClient datasets = new DatasetClient(node.vertx(), new QueryTimeouts(60_000));
      StorageClient storage = new StorageClient(node.vertx());
      String first = sql();
      QueryResult sample = worker.run(new QueryRequest(first, tables, 60_000)).await()
          .withIdentity(null, conversation, first);
      Map<String, Step> steps = new LinkedHashMap<>();
      steps.put("GET /api/health/live", () -> client.get("/api/health/live").send().await());
      steps.put("POST .../query (REST)", () -> send(client, HttpMethod.POST, base + "/query",
          new JsonObject().put("sql", sql())));
      steps.put("dataset.query.run (bus)", () -> datasets.query(userId, conversation, sql()).await());
      steps.put("worker.query.run (pool)", () -> worker.run(new QueryRequest(sql(), tables, 60_000,
          userId, conversation)).await());
      // A statement that reads no table, also in a conversation without datasets: what the conversation's tables cost it.
      if (!SQL.toUpperCase(Locale.ROOT).contains("FROM")) {
        steps.put("REST, no datasets", () -> send(client, HttpMethod.POST, bareBase + "/query",
            new JsonObject().put("sql", sql())));
        steps.put("bus, no datasets", () -> datasets.query(userId, bare, sql()).await());
        steps.put("pool, no tables", () -> worker.run(new QueryRequest(sql(), Map.of(), 60_000, userId, bare)).await());
      }
      steps.put("storage datasetsForQuery", () -> storage.datasetsForQuery(userId, conversation).await());
      steps.put("storage conversation", () -> storage.conversation(userId, conversation).await());
      steps.put("storage saveResult", () -> storage.saveResult(userId,
          sample.stored(java.util.UUID.randomUUID().toString(), io.quarry.bus.Timestamps.now())).await());
      Map<String, double[]> times = new LinkedHashMap<>();
      steps.keySet().forEach(name -> times.put(name, new double[rounds]));
      List<String> names = List.copyOf(steps.keySet());
      for (int i = -rounds / 3; i < rounds; i++) {
        for (int k = 0; k < names.size(); k++) {
          String name = names.get(Math.floorMod(i + k, names.size()));
          long t0 = System.nanoTime();
          steps.get(name).once();
          if (i >= 0) {
            times.get(name)[i] = (System.nanoTime() - t0) / 1e6;
          }
        }
      }
      System.out.printf(Locale.ROOT, "%n'%s' entered at each layer, %d rounds, %d cores (ms)%n", SQL, rounds,
          Runtime.getRuntime().availableProcessors());
      times.forEach((name, t) -> System.out.printf(Locale.ROOT, "   %-28s p50 %6.2f  p90 %6.2f  p99 %6.2f  min %5.2f%n",
          name, RestBench.pct(t, 0.5), RestBench.pct(t, 0.9), RestBench.pct(t, 0.99), RestBench.pct(t, 0)));
      Map<String, List<Cpu>> cpu = new LinkedHashMap<>();
      for (int block = 0; block < CPU_BLOCKS; block++) {
        for (Map.Entry<String, Step> step : steps.entrySet()) {
          cpu.computeIfAbsent(step.getKey(), name -> new ArrayList<>()).add(cpuPerCall(step.getValue(), rounds / CPU_BLOCKS));
        }
      }
      System.out.printf(Locale.ROOT, "%nCPU per call (ms), median of %d blocks of %d calls, the layers taking turns:"
          + " this JVM (the node, the bench's client, the files' server) and the worker process%n", CPU_BLOCKS,
          rounds / CPU_BLOCKS);
      cpu.forEach((name, blocks) -> System.out.printf(Locale.ROOT, "   %-28s node %6.2f  worker %6.2f%n", name,
          LoadStats.median(blocks.stream().map(Cpu::node).toList()),
          LoadStats.median(blocks.stream().map(Cpu::worker).toList())));
    } finally {
      node.stop().await();
      outside.close().await();
    }
  }
}
