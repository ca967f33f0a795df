package io.quarry.bench;

import io.quarry.app.Launcher;
import io.quarry.app.Node;
import io.quarry.testing.ParquetServer;
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
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Issue 51's benchmark, on loopback only, one run: adding a ~100 MB CSV file by URL (the worker fetches it whole and
 * reads it into its Parquet copy) and its first query, against bare DuckDB reading the same local file with read_csv
 * (its first query is its whole read too), then a second query against bare DuckDB's second; then the same file
 * uploaded (streamed to the node, added from there) and its first query.
 */
public final class TextBench {

  private static final String QUESTION = "SELECT city, count(*) AS n, avg(score) AS mean FROM %s GROUP BY city"
      + " ORDER BY city";

  public static void main(String[] args) throws Exception {
    Path work = Path.of(System.getProperty("java.io.tmpdir"), "quarry-bench");
    Files.createDirectories(work);
    Path csv = csvFile(work);
    Path run = Scratch.dir("quarry-bench-text");
    Map<String, String> env = new HashMap<>();
    env.put("QUARRY_HTTP_PORT", "0");
    env.put("QUARRY_DATA_DIR", run.resolve("node").toString());
    env.put("QUARRY_ALLOW_PRIVATE_NETWORKS", "true");
    env.put("QUARRY_QUERY_TIMEOUT_MS", "300000");
    env.put("QUARRY_DATASET_SCHEMA_TIMEOUT_MS", "300000");
    Node node = Launcher.start(env, "--config", work.resolve("none.json").toString()).await();
    try {
      ParquetServer files = ParquetServer.start(node.vertx());
      files.route("/big.csv").file(csv);
      WebClient client = WebClient.create(node.vertx(),
          new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(node.httpPort()));
      String conversation = client.post("/api/conversations").send().await().bodyAsJsonObject().getString("id");

      long started = System.nanoTime();
      HttpResponse<Buffer> added = client.post("/api/conversations/" + conversation + "/datasets")
          .timeout(600_000).sendJsonObject(new JsonObject().put("url", files.url("/big.csv"))).await();
      long addMs = ms(started);
      started = System.nanoTime();
      HttpResponse<Buffer> first = query(client, conversation);
      long firstMs = ms(started);
      started = System.nanoTime();
      query(client, conversation);
      long secondMs = ms(started);

      String uploaded = client.post("/api/conversations").send().await().bodyAsJsonObject().getString("id");
      started = System.nanoTime();
      var file = node.vertx().fileSystem().open(csv.toString(), new io.vertx.core.file.OpenOptions().setRead(true))
          .await();
      HttpResponse<Buffer> upload = client.post("/api/conversations/" + uploaded + "/datasets/upload")
          .addQueryParam("name", "people.csv").putHeader("Content-Type", "text/csv")
          .putHeader("Content-Length", String.valueOf(Files.size(csv))).timeout(600_000).sendStream(file).await();
      long uploadMs = ms(started);
      started = System.nanoTime();
      HttpResponse<Buffer> uploadedFirst = query(client, uploaded);
      long uploadedFirstMs = ms(started);

      long bareFirst;
      long bareSecond;
      try (Connection duck = DriverManager.getConnection("jdbc:duckdb:"); Statement s = duck.createStatement()) {
        String reader = "read_csv('" + csv + "')";
        started = System.nanoTime();
        drain(s, String.format(QUESTION, reader));
        bareFirst = ms(started);
        started = System.nanoTime();
        drain(s, String.format(QUESTION, reader));
        bareSecond = ms(started);
      }
      System.out.printf(Locale.ROOT, "%nA %.1f MB CSV file by URL (add: status %d, %s rows; query: status %d), %d cores%n",
          Files.size(csv) / 1048576.0, added.statusCode(), added.bodyAsJsonObject().getLong("row_count"),
          first.statusCode(), Runtime.getRuntime().availableProcessors());
      System.out.printf(Locale.ROOT, "   add + first query   %,6d ms  (add %,d ms, query %,d ms)%n", addMs + firstMs,
          addMs, firstMs);
      System.out.printf(Locale.ROOT, "   bare DuckDB first   %,6d ms  read_csv over the local file%n", bareFirst);
      System.out.printf(Locale.ROOT, "   ratio               %6.2f×%n", (addMs + firstMs) / (double) bareFirst);
      System.out.printf(Locale.ROOT, "   second query        %,6d ms  against bare DuckDB's second %,d ms (%.2f×)%n",
          secondMs, bareSecond, secondMs / (double) bareSecond);
      System.out.printf(Locale.ROOT, "%nThe same file uploaded (status %d, %s rows; query: status %d)%n",
          upload.statusCode(), upload.bodyAsJsonObject().getLong("row_count"), uploadedFirst.statusCode());
      System.out.printf(Locale.ROOT, "   upload + first query %,6d ms  (upload and add %,d ms, query %,d ms)%n",
          uploadMs + uploadedFirstMs, uploadMs, uploadedFirstMs);
      System.out.printf(Locale.ROOT, "   ratio to bare first %6.2f×%n", (uploadMs + uploadedFirstMs) / (double) bareFirst);
    } finally {
      node.stop().await();
    }
  }

  private static HttpResponse<Buffer> query(WebClient client, String conversation) {
    return client.post("/api/conversations/" + conversation + "/query").timeout(600_000)
        .sendJsonObject(new JsonObject().put("sql", String.format(QUESTION, "table1"))).await();
  }

  private static long ms(long since) {
    return (System.nanoTime() - since) / 1_000_000;
  }

  private static void drain(Statement s, String sql) throws Exception {
    try (ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        rs.getObject(1);
      }
    }
  }

  /** ~100 MB of rows like people's: ids, quoted names with commas, cities, dates, decimals with empty fields. */
  private static Path csvFile(Path work) throws Exception {
    Path csv = work.resolve("people-100mb.csv");
    if (Files.exists(csv)) {
      return csv;
    }
    Path part = work.resolve("people-100mb.csv.part");
    try (Connection duck = DriverManager.getConnection("jdbc:duckdb:"); Statement s = duck.createStatement()) {
      s.execute("COPY (SELECT i AS id, 'Person ' || i || ', ' || (i % 97) AS name,"
          + " ['Lyon', 'São Paulo', 'New York', 'Köln'][1 + i % 4] AS city,"
          + " DATE '2020-01-01' + CAST(i % 1500 AS INTEGER) AS joined,"
          + " CASE WHEN i % 11 = 0 THEN NULL ELSE round(i % 10000 / 7.0, 2) END AS score,"
          + " md5(CAST(i AS VARCHAR)) AS token FROM range(1400000) t(i)) TO '" + part + "' (FORMAT CSV, HEADER)");
    }
    Files.move(part, csv);
    return csv;
  }
}
