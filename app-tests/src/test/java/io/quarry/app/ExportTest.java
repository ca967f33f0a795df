package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.Export;
import io.quarry.testing.ParquetFixtures;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.file.AsyncFile;
import io.vertx.core.file.OpenOptions;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** A result's whole data as a file (issue 20, part 1): GET /api/results/:rid/export?format=csv|parquet|json. */
class ExportTest extends ChatTestBase {

  @Override
  boolean sharesNode() {
    return true;
  }

  /** Every kind of value CSV must quote or spell: commas, quotes, NULLs, decimals, dates. */
  private static final String BIG = "SELECT i AS id, CASE WHEN i % 7 = 0 THEN NULL ELSE 'name, \"' || i || '\"' END"
      + " AS name, i / 3.0 AS ratio, DATE '2020-01-01' + (i % 1000)::INTEGER AS day FROM range(2000000) t(i)";

  private HttpResponse<Buffer> export(String resultId, String format) {
    return chat.send(HttpMethod.GET, "/api/results/" + resultId + "/export" + (format == null ? "" : "?format=" + format),
        null);
  }

  /** Downloads to a file, as a browser does, without holding it in memory. */
  private HttpClientResponse download(String resultId, String format, Path to) {
    HttpClient http = chat.outside.createHttpClient();
    AsyncFile file = chat.outside.fileSystem().open(to.toString(), new OpenOptions()).await();
    return http.request(HttpMethod.GET, chat.node.httpPort(), "127.0.0.1",
            "/api/results/" + resultId + "/export?format=" + format)
        .compose(HttpClientRequest::send)
        .compose(response -> response.pipeTo(file).map(response))
        .await();
  }

  /** What DuckDB itself writes for {@code sql} over {@code parquet} (as table1) with {@code options}. */
  private static Path duckdbCopy(Path parquet, String sql, String options, Path to) throws Exception {
    try (Connection db = DriverManager.getConnection("jdbc:duckdb:"); Statement s = db.createStatement()) {
      s.execute("CREATE VIEW table1 AS SELECT * FROM read_parquet('" + parquet + "')");
      s.execute("COPY (" + sql + ") TO '" + to + "' " + options);
    }
    return to;
  }

  private List<Path> exportFiles() throws Exception {
    try (Stream<Path> all = Files.walk(chat.dir)) {
      return all.filter(p -> p.getParent() != null && p.getParent().getFileName().toString().equals("exports"))
          .toList();
    }
  }

  /** Every worker process's exports folder: which worker writes an export is the pool's choice. */
  private List<Path> exportsDirs() throws Exception {
    try (Stream<Path> all = Files.walk(chat.dir)) {
      return all.filter(p -> Files.isDirectory(p) && p.getFileName().toString().equals("exports")).toList();
    }
  }

  @Test
  @DisplayName("a 2,000,000-row result downloads whole as CSV, byte for byte what DuckDB writes for the same SQL,"
      + " named after its conversation, and leaves no file behind")
  void wholeCsv() throws Exception {
    Path big = dir.resolve("big.parquet");
    ParquetFixtures.create(big, BIG);
    chat.files.route("/big.parquet").file(big);
    chat.addDataset(conversation, "/big.parquet");
    chat.send(HttpMethod.PATCH, "/api/conversations/" + conversation, new JsonObject().put("title", "Ventes par région"));
    String sql = "SELECT * FROM table1 ORDER BY id";
    JsonObject result = query(sql);
    assertThat(result.getBoolean("truncated")).isTrue();

    Path got = dir.resolve("got.csv");
    HttpClientResponse response = download(result.getString("id"), "csv", got);

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.getHeader("content-type")).isEqualTo("text/csv; charset=utf-8");
    assertThat(response.getHeader("content-disposition"))
        .isEqualTo("attachment; filename=\"ventes-par-region.csv\"; filename*=UTF-8''Ventes%20par%20r%C3%A9gion.csv");
    assertThat(response.getHeader("x-quarry-rows")).isEqualTo("2000000");
    Path expected = duckdbCopy(big, sql, "(FORMAT CSV, HEADER true)", dir.resolve("expected.csv"));
    assertThat(Long.parseLong(response.getHeader("content-length"))).isEqualTo(Files.size(expected));
    assertThat(Files.mismatch(got, expected)).isEqualTo(-1L);
    assertThat(exportFiles()).isEmpty();
  }

  @Test
  @DisplayName("Parquet holds the same rows and types as the query; JSON is DuckDB's array of row objects")
  void parquetAndJson() throws Exception {
    chat.addDataset(conversation, "/people.parquet");
    String sql = "SELECT id, name, score, joined, active FROM table1 WHERE age > 30 ORDER BY id";
    String resultId = query(sql).getString("id");
    Path people = chat.dir.resolve("people.parquet");

    Path parquet = dir.resolve("got.parquet");
    HttpClientResponse asParquet = download(resultId, "parquet", parquet);
    assertThat(asParquet.getHeader("content-type")).isEqualTo("application/vnd.apache.parquet");
    assertThat(asParquet.getHeader("content-disposition")).isEqualTo("attachment; filename=\"quarry-result.parquet\"");
    try (Connection db = DriverManager.getConnection("jdbc:duckdb:"); Statement s = db.createStatement()) {
      s.execute("CREATE VIEW table1 AS SELECT * FROM read_parquet('" + people + "')");
      ResultSet differ = s.executeQuery("SELECT (SELECT count(*) FROM ((" + sql + ") EXCEPT ALL SELECT * FROM"
          + " read_parquet('" + parquet + "'))), (SELECT count(*) FROM (SELECT * FROM read_parquet('" + parquet
          + "') EXCEPT ALL (" + sql + "))), (SELECT count(*) FROM read_parquet('" + parquet + "')) - (SELECT count(*)"
          + " FROM (" + sql + ")),"
          + " (SELECT string_agg(column_type, ',') FROM (DESCRIBE SELECT * FROM read_parquet('" + parquet + "')))");
      differ.next();
      assertThat(differ.getLong(1)).isZero();
      assertThat(differ.getLong(2)).isZero();
      assertThat(differ.getLong(3)).as("rows more than the query's").isZero();
      assertThat(differ.getString(4)).isEqualTo("BIGINT,VARCHAR,DECIMAL(10,2),DATE,BOOLEAN");
    }

    HttpResponse<Buffer> json = export(resultId, "json");
    assertThat(json.getHeader("content-type")).isEqualTo("application/json");
    Path expected = duckdbCopy(people, sql, "(FORMAT JSON, ARRAY true)", dir.resolve("expected.json"));
    assertThat(json.bodyAsString()).isEqualTo(Files.readString(expected));
    JsonArray rows = json.bodyAsJsonArray();
    assertThat(rows.getJsonObject(0).fieldNames()).containsExactly("id", "name", "score", "joined", "active");
  }

  @Test
  @DisplayName("a format other than csv, parquet or json, or none, is refused with 400 and what to send")
  void unknownFormat() {
    chat.addDataset(conversation, "/people.parquet");
    String resultId = query("SELECT * FROM table1").getString("id");
    for (String format : new String[] {"xlsx", "CSV", "", null}) {
      HttpResponse<Buffer> refused = export(resultId, format);
      assertThat(refused.statusCode()).as(format).isEqualTo(400);
      assertThat(refused.bodyAsJsonObject().getString("error"))
          .isEqualTo("Query parameter 'format' must be csv, parquet or json");
    }
  }

  @Test
  @DisplayName("a result that is nobody's, or not this user's, is not found")
  void notFound() {
    HttpResponse<Buffer> missing = export("no-such-result", "csv");
    assertThat(missing.statusCode()).isEqualTo(404);
  }

  @Test
  @DisplayName("when the file changed since the result, the export says so (409) instead of other data under its name,"
      + " and keeps no file")
  void dataChanged() throws Exception {
    chat.addDataset(conversation, "/people.parquet");
    String resultId = query("SELECT * FROM table1").getString("id");
    chat.files.route("/people.parquet").content(ParquetFixtures.write(dir.resolve("more.parquet"),
        "SELECT i AS id, 'person ' || i AS name FROM range(150) t(i)"));

    HttpResponse<Buffer> refused = export(resultId, "csv");

    assertThat(refused.statusCode()).isEqualTo(409);
    assertThat(refused.bodyAsJsonObject().getString("error")).isEqualTo(Export.DATA_CHANGED);
    assertThat(exportFiles()).isEmpty();
  }

  @Test
  @DisplayName("a browser that goes away mid-download stops it: the worker's file is deleted")
  void clientGoesAway() throws Exception {
    Path big = dir.resolve("big.parquet");
    ParquetFixtures.create(big, BIG);
    chat.files.route("/big.parquet").file(big);
    chat.addDataset(conversation, "/big.parquet");
    String resultId = query("SELECT * FROM table1").getString("id");
    List<Path> exports = exportsDirs();
    assertThat(exports).isNotEmpty();

    try (WatchService watch = FileSystems.getDefault().newWatchService()) {
      for (Path folder : exports) {
        folder.register(watch, StandardWatchEventKinds.ENTRY_DELETE);
      }
      HttpClient http = chat.outside.createHttpClient();
      HttpClientResponse response = http.request(HttpMethod.GET, chat.node.httpPort(), "127.0.0.1",
          "/api/results/" + resultId + "/export?format=csv").compose(HttpClientRequest::send)
          .map(started -> started.pause()).await();
      assertThat(response.statusCode()).isEqualTo(200);
      // Held back by a browser that reads nothing more, the download has not ended, so its file is still there.
      assertThat(exportFiles()).as("the file of a download under way").hasSize(1);
      response.request().connection().close().await();

      WatchKey deleted = watch.poll(30, TimeUnit.SECONDS);
      assertThat(deleted).as("the export's file was deleted").isNotNull();
      assertThat(exportFiles()).isEmpty();
    }
  }
}
