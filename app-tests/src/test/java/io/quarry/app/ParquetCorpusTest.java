package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.QueryRequest;
import io.quarry.bus.WorkerClient;
import io.quarry.testing.ParquetServer;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * Every real Parquet file: what DuckDB reads, Quarry reads; what it rejects, Quarry refuses cleanly. The corpus is the
 * test files other engines publish (Drill, Spark, parquet-java: unpacked by the build into target/parquet-corpus), a
 * few from corpora not on Maven Central (test resources parquet-outside: another writer's shredded VARIANT, a column
 * chunk whose value count disagrees with its row group) and files DuckDB writes here of what those lack (shredded
 * VARIANT, GEOMETRY, every codec, tiny row groups), plus broken ones. Each is added by URL and compared with bare DuckDB
 * reading the same local file directly: the schema with DESCRIBE, the count and the whole rows through the SQL runner,
 * and each column in turn through a worker over a fresh copy (a URL of its own, holding only the footer at first), so
 * that the sparse path (every file here is fetched column by column) fetches and reads that column alone, beside the
 * ones fetched before it. More directories of Parquet files (a whole outside corpus) can be given in the system
 * property {@code quarry.corpus.dirs}, separated as a class path is.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ParquetCorpusTest {

  private static final Path CORPUS = Path.of("target/parquet-corpus");
  private static final Path OUTSIDE = Path.of("target/test-classes/parquet-outside");
  private static final List<String> REFUSALS = List.of("Not a valid parquet file", "Could not read parquet schema");

  @TempDir
  static Path dir;

  Node node;
  WebClient client;
  WorkerClient worker;
  ParquetServer files;
  String base;
  String anchor;
  /** What the corpus came to: files read exactly as bare DuckDB reads them, and refused as it refuses them. */
  final Set<Path> read = new LinkedHashSet<>();
  final Set<Path> refused = new LinkedHashSet<>();

  @BeforeAll
  void start() throws Exception {
    Map<String, String> env = TestNodes.env(dir.resolve("node"));
    env.put("QUARRY_ALLOW_PRIVATE_NETWORKS", "true");
    env.put("QUARRY_WORKER_WHOLE_FILE_BELOW_BYTES", "0");
    env.put("QUARRY_LOCAL_WORKERS", "1");
    // One person adding and removing some 300 files in a few minutes: far past the per-user write limit.
    env.put("QUARRY_CHAT_WRITE_BURST", "100000");
    env.put("QUARRY_CHAT_WRITES_PER_MINUTE", "100000");
    node = TestNodes.start(env, dir.resolve("node"));
    client = WebClient.create(node.vertx(), new WebClientOptions().setDefaultHost("127.0.0.1")
        .setDefaultPort(node.httpPort()));
    worker = new WorkerClient(node.vertx());
    files = ParquetServer.start(node.vertx());
    base = "/api/conversations/" + send(HttpMethod.POST, "/api/conversations", new JsonObject(), 201)
        .getString("id");
    Path people = BareDuckDb.write(dir.resolve("anchor.parquet"), "SELECT i AS id FROM range(10) t(i)");
    files.route("/anchor.parquet").file(people);
    anchor = send(HttpMethod.POST, base + "/datasets", new JsonObject().put("url", files.url("/anchor.parquet")), 201)
        .getString("name");
  }

  @AfterAll
  void stop() {
    LoggerFactory.getLogger(ParquetCorpusTest.class).info("Corpus: {} files read as bare DuckDB reads them, {} refused"
        + " at add as DuckDB refuses them", read.size(), refused.size());
    node.stop().await();
  }

  @TestFactory
  @DisplayName("each corpus file reads in Quarry as in bare DuckDB (schema, count, whole rows, every column over a"
      + " fresh copy), or is refused at add with a clear message while the conversation keeps working")
  Stream<DynamicTest> corpus() throws Exception {
    List<Path> corpus = new ArrayList<>(parquetFiles(CORPUS));
    corpus.addAll(parquetFiles(OUTSIDE));
    for (String more : System.getProperty("quarry.corpus.dirs", "").split(java.io.File.pathSeparator)) {
      if (!more.isBlank()) {
        corpus.addAll(parquetFiles(Path.of(more)));
      }
    }
    corpus.addAll(CorpusExtras.write(dir.resolve("extras")));
    assertThat(corpus).as("corpus files").hasSizeGreaterThan(250);
    return corpus.stream().map(file -> DynamicTest.dynamicTest(name(file), () -> check(file, corpus.indexOf(file))));
  }

  private static List<Path> parquetFiles(Path root) throws java.io.IOException {
    try (Stream<Path> all = Files.walk(root)) {
      return all.filter(f -> f.toString().endsWith(".parquet") && Files.isRegularFile(f)).sorted().toList();
    }
  }

  private static String name(Path file) {
    if (file.startsWith(CORPUS)) {
      return CORPUS.relativize(file).toString();
    }
    return file.startsWith(OUTSIDE) ? "outside/" + OUTSIDE.relativize(file) : file.startsWith(dir) ? "generated/"
        + file.getFileName() : file.toString();
  }

  private void check(Path file, int index) throws Exception {
    String path = "/corpus/" + index + ".parquet";
    files.route(path).file(file);
    BareDuckDb.Described bare = BareDuckDb.describe(file);
    HttpResponse<Buffer> added = post(base + "/datasets", new JsonObject().put("url", files.url(path)));
    if (bare.failure() != null) {
      assertThat(added.statusCode()).as("adding a file DuckDB rejects (%s): %s", bare.failure(), added.bodyAsString())
          .isEqualTo(400);
      assertThat(added.bodyAsJsonObject().getString("error")).isIn(REFUSALS);
      assertThat(value(query("SELECT count(*) FROM " + anchor))).isEqualTo("10");
      refused.add(file);
      return;
    }
    assertThat(added.statusCode()).as("adding a file DuckDB reads: %s", added.bodyAsString()).isEqualTo(201);
    JsonObject dataset = added.bodyAsJsonObject();
    try {
      assertThat(schema(dataset)).as("schema").isEqualTo(bare.columns());
      String table = dataset.getString("name");
      compare(BareDuckDb.COUNT, file, sql -> query(sql.replace(BareDuckDb.TABLE, table)));
      compare(BareDuckDb.WHOLE_ROWS, file, sql -> query(sql.replace(BareDuckDb.TABLE, table)));
      // A copy of its own that holds only the footer: each column's query then fetches that column and no other.
      String fresh = files.url(path) + "?fresh";
      for (JsonObject column : bare.columns()) {
        compare(BareDuckDb.column(column.getString("name")), file, sql -> worker.run(new QueryRequest(
            sql.replace(BareDuckDb.TABLE, "t"), Map.of("t", fresh), 60_000)).map(r -> r.rowValues().getJsonArray(0)));
      }
      read.add(file);
    } finally {
      assertThat(TestNodes.send(client, HttpMethod.DELETE, base + "/datasets/" + dataset.getString("id"), null)
          .statusCode()).isEqualTo(204);
    }
  }

  /**
   * The same statement over the bare file, read directly, and through Quarry: the same first row, or a failure in
   * both. Quarry binds a table as a view, through which DuckDB cannot plan some files it reads directly (it looks at
   * the statistics of every column the view projects: Drill's decimal ones, duckdb/duckdb#15467, or another writer's
   * shredded VARIANT); Quarry answers those as DuckDB does directly all the same.
   */
  private void compare(String sql, Path file, java.util.function.Function<String, Future<JsonArray>> quarry) {
    BareDuckDb.Answer expected = BareDuckDb.answer(file, sql);
    Future<JsonArray> actual = quarry.apply(sql);
    JsonArray row = actual.otherwise((JsonArray) null).await();
    if (expected.failure() != null) {
      assertThat(row).as("%s failed in bare DuckDB (%s) but answered in Quarry", sql, expected.failure()).isNull();
      return;
    }
    assertThat(row).as("%s: %s", sql, actual.cause()).isNotNull();
    assertThat(row.encode()).as(sql).isEqualTo(expected.row().encode());
  }

  private static List<JsonObject> schema(JsonObject dataset) {
    List<JsonObject> columns = new ArrayList<>();
    for (Object column : dataset.getJsonArray("schema")) {
      columns.add(new JsonObject().put("name", ((JsonObject) column).getString("name"))
          .put("type", ((JsonObject) column).getString("type")));
    }
    return columns;
  }

  /** The first row of a statement run in the SQL runner. */
  private Future<JsonArray> query(String sql) {
    HttpResponse<Buffer> response = post(base + "/query", new JsonObject().put("sql", sql));
    if (response.statusCode() != 200) {
      return Future.failedFuture(response.bodyAsString());
    }
    return Future.succeededFuture(response.bodyAsJsonObject().getJsonArray("rows").getJsonArray(0));
  }

  private static String value(Future<JsonArray> row) {
    return String.valueOf(row.await().getValue(0));
  }

  private HttpResponse<Buffer> post(String path, JsonObject body) {
    return TestNodes.send(client, HttpMethod.POST, path, body);
  }

  private JsonObject send(HttpMethod method, String path, JsonObject body, int status) {
    HttpResponse<Buffer> response = TestNodes.send(client, method, path, body);
    assertThat(response.statusCode()).as("%s %s: %s", method, path, response.bodyAsString()).isEqualTo(status);
    return response.bodyAsJsonObject();
  }
}
