package io.quarry.bench;

import io.quarry.bus.NodeInfo;
import io.quarry.bus.QueryRequest;
import io.quarry.bus.QueryResult;
import io.quarry.bus.WorkerClient;
import io.quarry.testing.ParquetFixtures;
import io.quarry.testing.ParquetServer;
import io.quarry.worker.pool.WorkerPool;
import io.quarry.worker.pool.WorkerPoolSettings;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Issue 16's benchmark, on loopback only, with the file server throttled to a link's bandwidth (100 MB/s unless
 * given, in MB/s, as the first argument): on a 1.2 GB, 6-column, 98-row-group file,
 * 1. the first query touching 2 columns, over a server that ignores Range (the whole-file path, the baseline)
 *    and over one that honours it (the sparse copy): bytes moved against footer + those columns' chunks, and time;
 * 2. {@code count(*)}: bytes moved against the footer;
 * 3. the same query again: bytes moved beyond revalidation;
 * 4. warm query time over the sparse copy against the same query through the worker over a complete copy, and in
 *    bare DuckDB over the complete local file.
 */
public final class FetchBench {

  private static final String TWO_COLUMNS = "SELECT max(a) AS a, max(v) AS v, count(v) AS n FROM t";
  /** Reads every value of both columns (statistics cannot answer it). */
  private static final String SCAN = "SELECT min(a), max(a), sum(v) FROM t WHERE v > 0.5";

  public static void main(String[] args) throws Exception {
    long megabytesPerSecond = args.length > 0 ? Long.parseLong(args[0]) : 100;
    Path work = Path.of(System.getProperty("java.io.tmpdir"), "quarry-bench");
    Files.createDirectories(work);
    Path big = DatasetBench.bigFile(work);
    long size = Files.size(big);
    Vertx vertx = Vertx.vertx();
    try {
      ParquetServer files = ParquetServer.start(vertx);
      long rate = megabytesPerSecond * 1_000_000;
      ParquetServer.Route whole = files.route("/whole.parquet").file(big).throttle(rate).ignoreRange();
      ParquetServer.Route sparse = files.route("/sparse.parquet").file(big).throttle(rate);
      deployWorker(vertx, Scratch.dir("quarry-bench-fetch"));
      WorkerClient worker = new WorkerClient(vertx);
      long footer;
      long twoColumns;
      try (Connection duck = DriverManager.getConnection("jdbc:duckdb:")) {
        footer = footer(big);
        twoColumns = chunks(duck, big, "'a', 'v'");
        System.out.printf(Locale.ROOT, "File: %,d bytes, %d columns, %d row groups; footer %,d bytes; server throttled to"
            + " %d MB/s; %d cores%n", size, 6, rowGroups(duck, big), footer, megabytesPerSecond,
            Runtime.getRuntime().availableProcessors());

        System.out.printf(Locale.ROOT, "%n1. First query touching 2 columns (a, v): %s%n", TWO_COLUMNS);
        Measured full = measure(worker, whole, "/whole.parquet", files, TWO_COLUMNS);
        Measured first = measure(worker, sparse, "/sparse.parquet", files, TWO_COLUMNS);
        System.out.printf(Locale.ROOT, "   whole file (server ignores Range)  %,15d bytes  %8d ms%n", full.bytes, full.ms);
        System.out.printf(Locale.ROOT, "   sparse copy                        %,15d bytes  %8d ms%n", first.bytes, first.ms);
        System.out.printf(Locale.ROOT, "   footer + chunks of a and v         %,15d bytes%n", footer + twoColumns);
        System.out.printf(Locale.ROOT, "   bytes moved / (footer + chunks) %.4f; bytes against the whole path %.4f;"
                + " time against the whole path %.4f%n", first.bytes / (double) (footer + twoColumns),
            first.bytes / (double) full.bytes, first.ms / (double) full.ms);
        if (!first.result.rowValues().equals(full.result.rowValues())) {
          throw new IllegalStateException("The sparse copy answered " + first.result.rowValues() + ", the whole file "
              + full.result.rowValues());
        }

        Measured count = measure(worker, sparse, "/sparse.parquet?count", files, "SELECT count(*) FROM t");
        System.out.printf(Locale.ROOT, "%n2. count(*) on a new version: %,d bytes moved (footer with its length and"
            + " magic number: %,d) in %d ms, answer %s%n", count.bytes, footer, count.ms, count.result.rowValues());

        Measured again = measure(worker, sparse, "/sparse.parquet", files, TWO_COLUMNS);
        System.out.printf(Locale.ROOT, "%n3. The same query again: %,d bytes moved beyond revalidation (a 304), %d ms%n",
            again.bytes, again.ms);

        try (Statement s = duck.createStatement()) {
          s.execute("CREATE VIEW t AS SELECT * FROM read_parquet('" + big + "')");
        }
        Map<String, String> sparseTable = Map.of("t", files.url("/sparse.parquet"));
        Map<String, String> wholeTable = Map.of("t", files.url("/whole.parquet"));
        System.out.printf(Locale.ROOT, "%n4. Warm, a scan of both columns (%s), median of 15 alternating runs:%n", SCAN);
        worker.run(new QueryRequest(SCAN, sparseTable, 600_000)).await();
        compare("sparse copy, worker", () -> worker.run(new QueryRequest(SCAN, sparseTable, 600_000)).await(),
            "complete copy, worker", () -> worker.run(new QueryRequest(SCAN, wholeTable, 600_000)).await());
        compare("sparse copy, worker", () -> worker.run(new QueryRequest(SCAN, sparseTable, 600_000)).await(),
            "complete file, bare DuckDB", () -> bare(duck, SCAN));
      }
    } finally {
      vertx.close().await();
    }
  }

  private record Measured(long bytes, long ms, QueryResult result) {
  }

  private static Measured measure(WorkerClient worker, ParquetServer.Route route, String path, ParquetServer files,
      String sql) {
    long before = route.bodyBytes();
    long started = System.nanoTime();
    QueryResult result = worker.run(new QueryRequest(sql, Map.of("t", files.url(path)), 600_000)).await();
    return new Measured(route.bodyBytes() - before, (System.nanoTime() - started) / 1_000_000, result);
  }

  private static void deployWorker(Vertx vertx, Path dir) {
    JsonObject config = new JsonObject().put("dataDir", dir.toString()).put("allowPrivateNetworks", true)
        .put("threads", 2).put("memoryLimit", "2GB").put("cacheMaxBytes", 8L << 30).put("downloadTimeoutMs", 600_000);
    JsonObject node = new JsonObject().put("worker", config).put("localWorkers", new JsonObject())
        .put("query", new JsonObject().put("timeoutMs", 600_000));
    vertx.deployVerticle(WorkerPool.inProcess(WorkerPoolSettings.inProcess(node,
        new NodeInfo("bench-node", "dev", List.of())))).await();
  }

  /** The footer with its length and magic number, from the file's last 8 bytes. */
  private static long footer(Path file) throws Exception {
    byte[] tail = new byte[8];
    try (var in = Files.newByteChannel(file)) {
      in.position(Files.size(file) - 8);
      in.read(java.nio.ByteBuffer.wrap(tail));
    }
    return ParquetFixtures.footerLength(tail);
  }

  /** The bytes of these columns' chunks and bloom filters, from DuckDB's reading of the footer. */
  static long chunks(Connection duck, Path file, String columns) throws Exception {
    return single(duck, "SELECT sum(total_compressed_size) + coalesce(sum(bloom_filter_length), 0) FROM parquet_metadata('"
        + file + "') WHERE path_in_schema IN (" + columns + ")");
  }

  private static long rowGroups(Connection duck, Path file) throws Exception {
    return single(duck, "SELECT count(DISTINCT row_group_id) FROM parquet_metadata('" + file + "')");
  }

  private static long single(Connection duck, String sql) throws Exception {
    try (Statement s = duck.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static void bare(Connection duck, String sql) throws Exception {
    try (Statement s = duck.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        rs.getObject(1);
      }
    }
  }

  private interface Run {
    void once() throws Exception;
  }

  private static void compare(String name, Run quarry, String baseline, Run bare) throws Exception {
    int n = 15;
    quarry.once();
    bare.once();
    double[] viaQuarry = new double[n];
    double[] direct = new double[n];
    for (int i = 0; i < n; i++) {
      long t0 = System.nanoTime();
      quarry.once();
      long t1 = System.nanoTime();
      bare.once();
      long t2 = System.nanoTime();
      viaQuarry[i] = (t1 - t0) / 1e6;
      direct[i] = (t2 - t1) / 1e6;
    }
    Arrays.sort(viaQuarry);
    Arrays.sort(direct);
    System.out.printf(Locale.ROOT, "   %-20s %8.1f ms   %-27s %8.1f ms   ratio %.3f%n", name, viaQuarry[n / 2], baseline,
        direct[n / 2], viaQuarry[n / 2] / direct[n / 2]);
  }
}
