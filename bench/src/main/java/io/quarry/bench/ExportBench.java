package io.quarry.bench;

import io.quarry.testing.JarCommand;
import io.quarry.testing.JarNode;
import io.quarry.testing.ParquetFixtures;
import io.quarry.testing.ParquetServer;
import io.vertx.core.Vertx;
import io.vertx.core.file.AsyncFile;
import io.vertx.core.file.OpenOptions;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Issue 20's export, loopback only: a result's whole download ({@code GET /api/results/:rid/export}, through a node
 * from the jar and its worker process) against DuckDB writing the same SQL's file itself from the local Parquet file,
 * the least an export can cost. Also how much the web node's resident memory grows while it streams the files, which
 * should be nothing like their size.
 */
public final class ExportBench {

  static final int ROWS = 2_000_000;
  static final int ROUNDS = 5;
  static final String SQL = "SELECT * FROM table1 WHERE id % 2 = 0 ORDER BY id";

  public static void main(String[] args) throws Exception {
    Path jar = Path.of(args.length > 0 ? args[0] : "app/target/quarry.jar");
    Path work = Scratch.dir("quarry-export-bench");
    Path parquet = work.resolve("big.parquet");
    ParquetFixtures.create(parquet, "SELECT i AS id, 'name ' || i AS name, i / 3.0 AS ratio,"
        + " DATE '2020-01-01' + (i % 1000)::INTEGER AS day FROM range(" + ROWS * 2 + ") t(i)");
    Vertx outside = Vertx.vertx();
    ParquetServer files = ParquetServer.start(outside);
    files.route("/big.parquet").file(parquet);
    Path data = work.resolve("node");
    Files.createDirectories(data);
    int port = JarCommand.freePort();
    Map<String, String> env = new HashMap<>();
    env.put("QUARRY_HTTP_PORT", String.valueOf(port));
    env.put("QUARRY_METRICS_PORT", "0");
    env.put("QUARRY_DATA_DIR", data.toString());
    env.put("QUARRY_ALLOW_PRIVATE_NETWORKS", "true");
    JarNode node = JarNode.launch(jar, data.resolve("node.log"), env, "--config", data.resolve("none.json").toString());
    try {
      node.awaitStarted(120);
      WebClient client = WebClient.create(outside, new WebClientOptions().setDefaultHost("127.0.0.1")
          .setDefaultPort(port));
      String conversation = client.post("/api/conversations").sendJsonObject(new JsonObject()).await()
          .bodyAsJsonObject().getString("id");
      JsonObject added = client.post("/api/conversations/" + conversation + "/datasets")
          .sendJsonObject(new JsonObject().put("url", files.url("/big.parquet"))).await().bodyAsJsonObject();
      if (!"ready".equals(added.getString("status"))) {
        throw new IllegalStateException("dataset not added: " + added);
      }
      JsonObject result = client.post("/api/conversations/" + conversation + "/query")
          .sendJsonObject(new JsonObject().put("sql", SQL)).await().bodyAsJsonObject();
      String resultId = result.getString("id");
      System.out.printf(Locale.ROOT, "%nExport of %,d rows (%s) from a node of %s, against DuckDB writing the same"
          + " file from the local Parquet file; median of %d alternating rounds; %d cores%n",
          result.getLong("total_rows"), SQL, jar, ROUNDS, Runtime.getRuntime().availableProcessors());
      long residentBefore = residentKb(node.process.pid());
      HttpClient http = outside.createHttpClient();
      for (String format : List.of("csv", "parquet")) {
        String options = format.equals("csv") ? "(FORMAT CSV, HEADER true)" : "(FORMAT PARQUET)";
        Map<String, List<Double>> ms = new HashMap<>();
        long bytes = 0;
        download(outside, http, port, resultId, format, work.resolve("warm." + format));
        for (int round = 0; round < ROUNDS; round++) {
          Path got = work.resolve("got." + format);
          Path own = work.resolve("duckdb." + format);
          long started = System.nanoTime();
          ms.computeIfAbsent("first byte", k -> new ArrayList<>())
              .add(download(outside, http, port, resultId, format, got));
          ms.computeIfAbsent("quarry", k -> new ArrayList<>()).add((System.nanoTime() - started) / 1e6);
          started = System.nanoTime();
          duckdb(parquet, options, own);
          ms.computeIfAbsent("duckdb", k -> new ArrayList<>()).add((System.nanoTime() - started) / 1e6);
          bytes = Files.size(got);
          if (format.equals("csv") && Files.mismatch(got, own) != -1) {
            throw new IllegalStateException("the download differs from DuckDB's own file");
          }
        }
        double quarry = LoadStats.median(ms.get("quarry"));
        double duckdb = LoadStats.median(ms.get("duckdb"));
        double firstByte = LoadStats.median(ms.get("first byte"));
        System.out.printf(Locale.ROOT, "  %-8s %,13d bytes: download %8.1f ms (%6.1f MB/s; first byte after %6.1f ms),"
            + " DuckDB alone %8.1f ms: %.2f×%n", format, bytes, quarry, bytes / quarry / 1000, firstByte, duckdb,
            quarry / duckdb);
      }
      long residentAfter = residentKb(node.process.pid());
      System.out.printf(Locale.ROOT, "  the web node's peak resident memory: %,d KB before the downloads, %,d KB after"
          + " (%+,d KB)%n", residentBefore, residentAfter, residentAfter - residentBefore);
    } finally {
      JarCommand.stop(node.process);
      outside.close().await();
    }
  }

  /** The download's time to its first byte (the worker's query and COPY), in ms. */
  private static double download(Vertx outside, HttpClient http, int port, String resultId, String format, Path to) {
    long started = System.nanoTime();
    double[] firstByte = new double[1];
    AsyncFile out = outside.fileSystem().open(to.toString(), new OpenOptions().setTruncateExisting(true)).await();
    HttpClientResponse response = http.request(HttpMethod.GET, port, "127.0.0.1",
            "/api/results/" + resultId + "/export?format=" + format)
        .compose(HttpClientRequest::send)
        .onSuccess(r -> firstByte[0] = (System.nanoTime() - started) / 1e6)
        .compose(r -> r.pipeTo(out).map(r))
        .await();
    if (response.statusCode() != 200) {
      throw new IllegalStateException("export failed: " + response.statusCode());
    }
    return firstByte[0];
  }

  private static void duckdb(Path parquet, String options, Path to) throws Exception {
    try (Connection db = DriverManager.getConnection("jdbc:duckdb:"); Statement s = db.createStatement()) {
      s.execute("CREATE VIEW table1 AS SELECT * FROM read_parquet('" + parquet + "')");
      s.execute("COPY (" + SQL + ") TO '" + to + "' " + options);
    }
  }

  /** The process's peak resident set (VmHWM), in KB. */
  private static long residentKb(long pid) throws Exception {
    for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
      if (line.startsWith("VmHWM:")) {
        return Long.parseLong(line.replaceAll("\\D", ""));
      }
    }
    return -1;
  }
}
