package io.quarry.bench;

import io.quarry.app.Launcher;
import io.quarry.app.Node;
import io.quarry.bus.Addresses;
import io.quarry.bus.DatasetClient;
import io.quarry.bus.Deliveries;
import io.quarry.bus.QueryRequest;
import io.quarry.bus.QueryResult;
import io.quarry.bus.QueryTimeouts;
import io.quarry.bus.StorageClient;
import io.quarry.bus.WorkerClient;
import io.quarry.bus.WorkerReply;
import io.quarry.testing.ParquetFixtures;
import io.quarry.testing.ParquetServer;
import io.quarry.worker.WorkerVerticle;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Issue 3's benchmark, on loopback only:
 * 1. bytes transferred to add a ≥ 1 GB Parquet file, against its size;
 * 2. warm queries through REST → bus → worker against the same SQL on the same local file in a bare
 *    in-process DuckDB connection: a trivial query and a group-by over ≥ 10 M rows.
 */
public final class DatasetBench {

  private static final String TRIVIAL = "SELECT 42 AS answer";
  private static final String GROUP_BY = "SELECT g, count(*) AS n, avg(v) AS mean FROM %s GROUP BY g ORDER BY g LIMIT 1000";
  /** The group-by's answer (1,000 rows of the same types) without the scan: what moving the rows costs when caches are warm. */
  private static final String ROWS = "SELECT i AS g, 12000::BIGINT AS n, random() AS mean FROM range(1000) t(i)";

  public static void main(String[] args) throws Exception {
    Path work = Path.of(System.getProperty("java.io.tmpdir"), "quarry-bench");
    Files.createDirectories(work);
    Path big = bigFile(work);
    Path run = Scratch.dir("quarry-bench-run");
    Map<String, String> env = new HashMap<>();
    env.put("QUARRY_HTTP_PORT", "0");
    env.put("QUARRY_DATA_DIR", run.resolve("node").toString());
    env.put("QUARRY_ALLOW_PRIVATE_NETWORKS", "true");
    env.put("QUARRY_WORKER_CACHE_MAX_BYTES", String.valueOf(8L << 30));
    Node node = Launcher.start(env, "--config", work.resolve("none.json").toString()).await();
    try {
      ParquetServer files = ParquetServer.start(node.vertx());
      ParquetServer.Route route = files.route("/big.parquet").file(big);
      WebClient client = WebClient.create(node.vertx(),
          new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(node.httpPort()));
      String conversation = client.post("/api/conversations").send().await().bodyAsJsonObject().getString("id");

      long started = System.nanoTime();
      HttpResponse<Buffer> added = client.post("/api/conversations/" + conversation + "/datasets")
          .sendJsonObject(new JsonObject().put("url", files.url("/big.parquet"))).await();
      long addMs = (System.nanoTime() - started) / 1_000_000;
      long size = Files.size(big);
      System.out.printf(Locale.ROOT, "%n1. Adding a dataset (status %d, %s rows)%n", added.statusCode(),
          added.bodyAsJsonObject().getLong("row_count"));
      System.out.printf(Locale.ROOT, "   file size          %,d bytes (%.2f GB)%n", size, size / (double) (1L << 30));
      System.out.printf(Locale.ROOT, "   bytes transferred  %,d bytes (%.6f%% of the file) in %d ms%n",
          route.bodyBytes(), 100.0 * route.bodyBytes() / size, addMs);

      String path = "/api/conversations/" + conversation + "/query";
      post(client, path, String.format(GROUP_BY, "table1")); // first use downloads the file into the worker cache
      try (Connection duck = DriverManager.getConnection("jdbc:duckdb:")) {
        try (Statement s = duck.createStatement()) {
          s.execute("CREATE VIEW t AS SELECT * FROM read_parquet('" + big + "')");
        }
        System.out.printf(Locale.ROOT, "%n2. Warm queries (median of N, ms), %d cores%n", Runtime.getRuntime().availableProcessors());
        compare("trivial", 500, () -> post(client, path, TRIVIAL), () -> bare(duck, TRIVIAL));
        String userId = client.get("/api/me").send().await().bodyAsJsonObject().getString("id");
        Map<String, String> tables = Map.of("table1", files.url("/big.parquet"));
        WorkerClient worker = new WorkerClient(node.vertx());
        DatasetClient datasets = new DatasetClient(node.vertx(), new QueryTimeouts(60_000));
        System.out.println("   trivial, by layer:");
        compare("  worker over the bus", 300, () -> worker.run(new QueryRequest(TRIVIAL, tables, 60_000)).await(),
            () -> bare(duck, TRIVIAL));
        String inProcess = inProcessWorker(node, run);
        compare("  worker in this JVM", 300, () -> direct(node, inProcess, new QueryRequest(TRIVIAL, tables, 60_000)),
            () -> bare(duck, TRIVIAL));
        compare("  dataset.query.run", 300, () -> datasets.query(userId, conversation, TRIVIAL).await(),
            () -> bare(duck, TRIVIAL));
        compare("1,000 rows, no scan", 300, () -> post(client, path, ROWS), () -> bare(duck, ROWS));
        compare("group-by " + rows(duck) + " rows", 300, () -> post(client, path, String.format(GROUP_BY, "table1")),
            () -> bare(duck, String.format(GROUP_BY, "t")));
        System.out.println("   group-by, by layer:");
        compare("  worker over the bus", 60,
            () -> worker.run(new QueryRequest(String.format(GROUP_BY, "table1"), tables, 60_000)).await(),
            () -> bare(duck, String.format(GROUP_BY, "t")));
        compare("  worker in this JVM", 60,
            () -> direct(node, inProcess, new QueryRequest(String.format(GROUP_BY, "table1"), tables, 60_000)),
            () -> bare(duck, String.format(GROUP_BY, "t")));
        compare("  dataset.query.run", 60,
            () -> datasets.query(userId, conversation, String.format(GROUP_BY, "table1")).await(),
            () -> bare(duck, String.format(GROUP_BY, "t")));
        StorageClient storage = new StorageClient(node.vertx());
        QueryResult sample = worker.run(new QueryRequest(String.format(GROUP_BY, "table1"), tables, 60_000)).await()
            .withIdentity(null, conversation, "x");
        compare("storage.datasets", 300, () -> storage.datasets(userId, conversation).await(), () -> bare(duck, TRIVIAL));
        compare("storage.saveResult 1000", 100, () -> storage.saveResult(userId, sample).await(), () -> bare(duck, TRIVIAL));
        compare("GET /api/health", 300, () -> client.get("/api/health").send().await(), () -> bare(duck, TRIVIAL));
      }
    } finally {
      node.stop().await();
    }
  }

  /**
   * Issue 8's baseline: the same worker verticle deployed inside this JVM (as before worker processes),
   * on an address of its own, so the process boundary's cost reads as the difference.
   */
  private static String inProcessWorker(Node node, Path run) {
    String id = "bench-in-process";
    JsonObject config = node.config().getJsonObject("worker").copy().put("name", "bench-in-process")
        .put("dataDir", run.resolve("in-process").toString()).put("localWorkerId", id);
    node.vertx().deployVerticle(new WorkerVerticle(), new DeploymentOptions().setConfig(config)).await();
    return Addresses.localWorker(id);
  }

  private static void direct(Node node, String address, QueryRequest request) {
    WorkerReply.decode(node.vertx().eventBus().<Buffer>request(address, request.toJson(), Deliveries.within(120_000))
        .await().body());
  }

  /** Six columns, 12 M rows in 98 row groups, 1.2 GB; also {@link FetchBench}'s file. */
  static Path bigFile(Path work) {
    Path big = work.resolve("big-12m.parquet");
    if (!Files.exists(big)) {
      System.out.println("Generating a ≥ 1 GB Parquet file (once; kept in " + work + ")...");
      ParquetFixtures.create(big, "SELECT i AS id, md5(i::VARCHAR) AS a, md5((i * 7)::VARCHAR) AS b,"
          + " md5((i * 13)::VARCHAR) AS c, i % 1000 AS g, random() AS v FROM range(12000000) t(i)");
    }
    return big;
  }

  private interface Run {
    void once() throws Exception;
  }

  /**
   * Runs both sides alternately, after a warm-up of each, so that both see the same machine. Besides the
   * difference of the medians, the median of the paired differences and its quartiles show the spread.
   */
  private static void compare(String name, int n, Run quarry, Run bare) throws Exception {
    for (int i = 0; i < (n >= 200 ? 2 * n : 40); i++) {
      quarry.once();
      bare.once();
    }
    double[] viaQuarry = new double[n];
    double[] inProcess = new double[n];
    long quarryCpu = 0;
    for (int i = 0; i < n; i++) {
      long cpu0 = ProcessCpu.self();
      long t0 = System.nanoTime();
      quarry.once();
      long t1 = System.nanoTime();
      quarryCpu += ProcessCpu.self() - cpu0;
      bare.once();
      long t2 = System.nanoTime();
      viaQuarry[i] = (t1 - t0) / 1e6;
      inProcess[i] = (t2 - t1) / 1e6;
    }
    double q = median(viaQuarry);
    double b = median(inProcess);
    double[] added = new double[n];
    Arrays.setAll(added, i -> viaQuarry[i] - inProcess[i]);
    Arrays.sort(added);
    System.out.printf(Locale.ROOT,
        "   %-24s quarry %9.3f   bare duckdb %9.3f   added %8.3f ms   ratio %.3f   paired %7.3f [%.3f, %.3f]"
            + "   (quarry cpu %.3f ms/op)%n",
        name, q, b, q - b, q / b, added[n / 2], added[n / 4], added[3 * n / 4], quarryCpu / 1e6 / n);
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }

  private static void post(WebClient client, String path, String sql) {
    HttpResponse<Buffer> response = client.post(path).sendJsonObject(new JsonObject().put("sql", sql)).await();
    if (response.statusCode() != 200) {
      throw new IllegalStateException("Query failed: " + response.bodyAsString());
    }
  }

  /** The same work as the worker: run, convert up to 1,000 rows to Java objects, count the rest. */
  private static void bare(Connection duck, String sql) throws Exception {
    try (Statement s = duck.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      int width = rs.getMetaData().getColumnCount();
      long count = 0;
      while (rs.next()) {
        if (count++ < 1000) {
          for (int i = 1; i <= width; i++) {
            rs.getObject(i);
          }
        }
      }
    }
  }

  private static long rows(Connection duck) throws Exception {
    try (Statement s = duck.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM t")) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
