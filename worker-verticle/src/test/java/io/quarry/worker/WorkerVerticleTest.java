package io.quarry.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.Addresses;
import io.quarry.bus.ChatEvents;
import io.quarry.bus.Failure;
import io.quarry.bus.QueryRequest;
import io.quarry.bus.QueryResult;
import io.quarry.bus.RowsJson;
import io.quarry.bus.WorkerClient;
import io.quarry.testing.Failures;
import io.quarry.testing.ParquetFixtures;
import io.quarry.testing.ParquetServer;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The worker alone: real DuckDB, real Parquet over real HTTP on loopback, requests over the bus. */
@ExtendWith(VertxExtension.class)
class WorkerVerticleTest {

  @TempDir
  Path dir;

  Vertx vertx;
  ParquetServer server;
  WorkerClient worker;
  ParquetServer.Route people;
  Map<String, String> tables;
  WorkerHarness harness;

  @BeforeEach
  void start(Vertx vertx) {
    this.vertx = vertx;
    server = ParquetServer.start(vertx);
    people = server.route("/people.parquet").content(ParquetFixtures.people(dir));
    tables = Map.of("people", server.url("/people.parquet"));
    harness = new WorkerHarness(vertx, dir);
    deploy(new JsonObject(), 5_000);
    worker = harness.client;
  }

  private void deploy(JsonObject overrides) {
    deploy(overrides, 5_000);
  }

  private void deploy(JsonObject overrides, long queryTimeoutMs) {
    deploy(overrides, queryTimeoutMs, new JsonObject());
  }

  private void deploy(JsonObject overrides, long queryTimeoutMs, JsonObject poolSettings) {
    harness.deploy(overrides, queryTimeoutMs, poolSettings);
  }

  private QueryResult run(String sql) {
    return run(sql, tables);
  }

  private QueryResult run(String sql, Map<String, String> bound) {
    return worker.run(new QueryRequest(sql, bound, 5_000)).await();
  }

  private ReplyException failure(String sql) {
    return failure(worker.run(new QueryRequest(sql, tables, 5_000)));
  }

  private static ReplyException failure(Future<?> future) {
    return (ReplyException) Failures.failure(future);
  }

  @Test
  @DisplayName("a query over a bound table returns typed columns, rows and timing")
  void query() {
    QueryResult r = run("SELECT count(*) AS n, max(age) AS oldest, min(name) AS first FROM people");
    assertThat(r.columns()).containsExactly(
        new JsonObject().put("name", "n").put("type", "BIGINT"),
        new JsonObject().put("name", "oldest").put("type", "BIGINT"),
        new JsonObject().put("name", "first").put("type", "VARCHAR"));
    assertThat(r.rowValues()).containsExactly(new JsonArray().add(100).add(69).add("person 1"));
    assertThat(r.totalRows()).isEqualTo(1);
    assertThat(r.truncated()).isFalse();
    assertThat(r.executionTimeMs()).isGreaterThanOrEqualTo(0);
  }

  @Test
  @DisplayName("a table whose file DuckDB cannot open fails only the statements that read it, naming the table and its"
      + " URL: SELECT 1 and the conversation's other tables keep working, and no message names a local path")
  void unreadableTable() {
    server.route("/broken.parquet").content(corruptFooter(ParquetFixtures.people(dir)));
    Map<String, String> both = new java.util.LinkedHashMap<>(tables);
    both.put("broken", server.url("/broken.parquet"));
    ReplyException refused = failure(worker.run(new QueryRequest("SELECT count(*) FROM broken", both, 5_000)));
    assertThat(refused.getMessage()).startsWith("The query engine cannot read table broken ("
        + server.url("/broken.parquet") + "): ").doesNotContain(dir.toString()).doesNotContain("/tmp")
        .doesNotContain("Stack Trace");
    assertThat(refused.failureCode()).isEqualTo(Failure.BAD_REQUEST.code());
    // Bound again beside the healthy table (the cache now holds its copy), it no longer breaks the database.
    assertThat(run("SELECT count(*) AS n FROM people", both).rowValues()).containsExactly(new JsonArray().add(100));
    assertThat(run("SELECT 1 AS one", both).rowValues()).containsExactly(new JsonArray().add(1));
    assertThat(failure(worker.run(new QueryRequest("SELECT * FROM people JOIN broken USING (id)", both, 5_000)))
        .getMessage()).startsWith("The query engine cannot read table broken (");
  }

  /** A Parquet file whose footer keeps its length and magic number but whose Thrift metadata is garbage. */
  private static byte[] corruptFooter(byte[] file) {
    byte[] broken = file.clone();
    int footer = (int) (file.length - ParquetFixtures.footerLength(file));
    for (int i = footer + 4; i < file.length - 8; i++) {
      broken[i] = (byte) 0xFF;
    }
    return broken;
  }

  @Test
  @DisplayName("a result names the version of every file it read: table, URL, ETag and size, as the cache revalidated them")
  void sources() {
    QueryResult r = run("SELECT count(*) AS n FROM people");
    assertThat(r.sources()).hasSize(1);
    JsonObject source = r.sources().getJsonObject(0);
    assertThat(source.getString("table")).isEqualTo("people");
    assertThat(source.getString("url")).isEqualTo(tables.get("people"));
    assertThat(source.getString("etag")).startsWith("\"");
    assertThat(source.getLong("size")).isPositive();
    assertThat(run("SELECT 1 AS one").sources()).as("a query that reads no table").isEmpty();
  }

  @Test
  @DisplayName("values serialise faithfully: big integers, NaN and infinities, decimals, dates, lists, structs, maps, nulls")
  void jsonFidelity() {
    QueryResult r = run("SELECT 9007199254740993::BIGINT big, 9007199254740991::BIGINT safe,"
        + " 170141183460469231731687303715884105727::HUGEINT huge, 'NaN'::DOUBLE nan, 'inf'::DOUBLE inf,"
        + " '-inf'::DOUBLE ninf, 1.5::FLOAT f, 12345678901234567.891::DECIMAL(20,3) dec, 3.25::DECIMAL(5,2) small,"
        + " DATE '2024-02-29' d, TIMESTAMP '2024-01-02 03:04:05.123456' ts, TIMESTAMPTZ '2024-01-02 03:04:05+00' tz,"
        + " TIME '01:02:03' t, [1, 2, NULL] l, {'x': 1, 'y': ['a']} s, MAP {'k': 1} m, MAP {1: 'a'} mi,"
        + " NULL::INTEGER n, true b, 'ab\\xFF'::BLOB bl, INTERVAL 3 DAY iv");
    JsonArray row = r.rowValues().getJsonArray(0);
    assertThat(row.getValue(0)).isEqualTo("9007199254740993");
    assertThat(row.getValue(1)).isEqualTo(9007199254740991L);
    assertThat(row.getValue(2)).isEqualTo("170141183460469231731687303715884105727");
    assertThat(row.getValue(3)).isEqualTo("NaN");
    assertThat(row.getValue(4)).isEqualTo("Infinity");
    assertThat(row.getValue(5)).isEqualTo("-Infinity");
    assertThat(row.getValue(6)).isEqualTo(1.5);
    assertThat(row.getValue(7)).isEqualTo("12345678901234567.891");
    assertThat(row.getValue(8)).isEqualTo(3.25);
    assertThat(row.getValue(9)).isEqualTo("2024-02-29");
    assertThat(row.getValue(10)).isEqualTo("2024-01-02T03:04:05.123456");
    assertThat(row.getValue(11)).isEqualTo("2024-01-02T03:04:05Z");
    assertThat(row.getValue(12)).isEqualTo("01:02:03");
    assertThat(row.getJsonArray(13)).isEqualTo(new JsonArray().add(1).add(2).addNull());
    assertThat(row.getJsonObject(14)).isEqualTo(new JsonObject().put("x", 1).put("y", new JsonArray().add("a")));
    assertThat(row.getJsonObject(15)).isEqualTo(new JsonObject().put("k", 1));
    assertThat(row.getJsonArray(16)).isEqualTo(new JsonArray().add(new JsonObject().put("key", 1).put("value", "a")));
    assertThat(row.getValue(17)).isNull();
    assertThat(row.getValue(18)).isEqualTo(true);
    assertThat(row.getValue(19)).isEqualTo("ab\\xFF");
    assertThat(row.getValue(20)).isEqualTo("3 days");
    // The worker writes rows straight to text: the same text Vert.x's own encoding gives their values.
    assertThat(RowsJson.of(r.rowValues()).text()).isEqualTo(r.rows().text());
  }

  @Test
  @DisplayName("results hold at most 1,000 rows: 1,000 are not truncated, 1,001 are, and total_rows stays exact")
  void rowCap() {
    QueryResult exact = run("SELECT * FROM range(1000)");
    assertThat(exact.rows().size()).isEqualTo(1000);
    assertThat(exact.truncated()).isFalse();
    QueryResult over = run("SELECT * FROM range(1001)");
    assertThat(over.rows().size()).isEqualTo(1000);
    assertThat(over.truncated()).isTrue();
    assertThat(over.totalRows()).isEqualTo(1001);
    assertThat(run("SELECT * FROM range(2500000)").totalRows()).isEqualTo(2_500_000);
  }

  @Test
  @DisplayName("a cell keeps 8,192 characters (one more is cut and marked) and a result about 2 M characters of rows")
  void sizeCaps() {
    String marker = "… [cut: 100,003 characters]";
    QueryResult wide = run("SELECT repeat('x', 100000) || lpad(i::VARCHAR, 3, '0') AS big FROM range(1000) t(i)");
    String first = wide.rowValues().getJsonArray(0).getString(0);
    assertThat(first).startsWith("xxx").endsWith(marker).hasSize(QueryResult.MAX_CELL_CHARS + marker.length());
    assertThat(wide.totalRows()).isEqualTo(1000);
    assertThat(wide.truncated()).isTrue();
    assertThat(wide.rows().size()).isBetween(200, 260);
    assertThat(wide.rows().text().length())
        .isBetween(QueryResult.MAX_ROWS_CHARS, QueryResult.MAX_ROWS_CHARS + QueryResult.MAX_CELL_CHARS + 100);

    String atLimit = run("SELECT repeat('y', 8192) AS v").rowValues().getJsonArray(0).getString(0);
    assertThat(atLimit).hasSize(8192).doesNotContain("[cut");
    String past = run("SELECT repeat('y', 8193) AS v").rowValues().getJsonArray(0).getString(0);
    assertThat(past).endsWith("… [cut: 8,193 characters]");
    Object list = run("SELECT list(repeat('z', 100)) AS l FROM range(100)").rowValues().getJsonArray(0).getValue(0);
    assertThat(list).asString().startsWith("[\"zzz").endsWith(" characters]");
  }

  @Test
  @DisplayName("the sandbox refuses every escape attempt with a clear message and writes nothing")
  void sandbox() throws Exception {
    Path outside = dir.resolve("outside.parquet");
    Path cache = dir.resolve("data").resolve("worker-1").resolve("cache");
    ParquetServer.Route other = server.route("/other.parquet").content(ParquetFixtures.write(dir.resolve("o.parquet"),
        "SELECT 'secret' AS s"));
    run("SELECT * FROM secrets", Map.of("secrets", server.url("/other.parquet")));
    Path otherFile;
    try (Stream<Path> files = Files.list(cache)) {
      otherFile = files.filter(p -> p.toString().endsWith(".parquet")).findFirst().orElseThrow();
    }
    String readOnly = "Only read queries are allowed";
    Map<String, String> attempts = new java.util.LinkedHashMap<>();
    attempts.put("COPY people TO '" + outside + "' (FORMAT parquet)", readOnly);
    attempts.put("COPY (SELECT 1) TO '" + cache.resolve("evil.parquet") + "'", readOnly);
    attempts.put("ATTACH '" + dir.resolve("x.db") + "' AS x", readOnly);
    attempts.put("INSTALL httpfs", readOnly);
    attempts.put("LOAD httpfs", readOnly);
    attempts.put("SET threads = 64", readOnly);
    attempts.put("RESET memory_limit", readOnly);
    attempts.put("PRAGMA database_list", readOnly);
    attempts.put("CREATE TABLE t AS SELECT 1", readOnly);
    attempts.put("CREATE TEMP VIEW v AS SELECT 1", readOnly);
    attempts.put("DROP VIEW people", readOnly);
    attempts.put("INSERT INTO people (id) VALUES (1)", readOnly);
    attempts.put("EXPORT DATABASE '" + dir.resolve("export") + "'", readOnly);
    attempts.put("SELECT 1; DROP VIEW people", readOnly);
    attempts.put("SELECT * FROM read_parquet('" + otherFile + "')", "The table function read_parquet() is not allowed");
    attempts.put("SELECT * FROM read_text('/etc/passwd')", "The table function read_text() is not allowed");
    attempts.put("SELECT * FROM glob('/*')", "The table function glob() is not allowed");
    attempts.put("SELECT * FROM duckdb_settings()", "The table function duckdb_settings() is not allowed");
    attempts.put("SELECT * FROM '" + otherFile + "'", "Table '" + otherFile + "' does not exist. Available tables: people");
    attempts.put("SELECT * FROM '/etc/passwd'", "Table '/etc/passwd' does not exist. Available tables: people");
    attempts.put("SELECT * FROM main.secrets", "Table 'main.secrets' does not exist. Available tables: people");
    attempts.put("SELECT * FROM secrets", "Table 'secrets' does not exist. Available tables: people");
    attempts.put("SELECT (SELECT s FROM read_parquet('" + otherFile + "'))", "The table function read_parquet() is not allowed");
    for (Map.Entry<String, String> attempt : attempts.entrySet()) {
      ReplyException e = failure(attempt.getKey());
      assertThat(e.getMessage()).as(attempt.getKey()).startsWith(attempt.getValue());
      assertThat(Failure.classify(e)).as(attempt.getKey()).isIn(Failure.BAD_REQUEST, Failure.SQL);
    }
    assertThat(attempts).hasSizeGreaterThanOrEqualTo(15);
    assertThat(outside).doesNotExist();
    assertThat(cache.resolve("evil.parquet")).doesNotExist();
    assertThat(dir.resolve("x.db")).doesNotExist();
    assertThat(dir.resolve("export")).doesNotExist();
    assertThat(run("SELECT count(*) FROM people").rowValues().getJsonArray(0).getLong(0)).isEqualTo(100);
    assertThat(other.requests()).as("its one fetch: its last 64 KB, all of it").isEqualTo(1);
  }

  @Test
  @DisplayName("CTEs and value-generating table functions are allowed alongside the bound tables")
  void allowedShapes() {
    assertThat(run("WITH young AS (SELECT * FROM people WHERE age < 30) SELECT count(*) FROM young, range(2)")
        .rowValues().getJsonArray(0).getLong(0)).isEqualTo(40);
  }

  @Test
  @DisplayName("a runaway query is cancelled at the timeout and the worker answers the next query")
  void timeout() {
    deploy(new JsonObject(), 500);
    ReplyException e = failure(worker.run(new QueryRequest(
        "SELECT count(*) FROM range(100000000000) a WHERE a.range % 7 = 3", tables, 500)));
    assertThat(Failure.classify(e)).isEqualTo(Failure.TIMEOUT);
    assertThat(e.getMessage()).isEqualTo("Query timed out after 0.5 s and was cancelled");
    assertThat(run("SELECT 42 AS answer").rowValues().getJsonArray(0).getInteger(0)).isEqualTo(42);
  }

  @Test
  @DisplayName("a query past DuckDB's memory limit fails with the memory message and the worker answers the next query")
  void memoryLimit() {
    deploy(new JsonObject().put("memoryLimit", "64MB"));
    ReplyException e = failure("SELECT list(i) FROM range(100000000) t(i)");
    assertThat(Failure.classify(e)).isEqualTo(Failure.SQL);
    assertThat(Failure.messageOf(e)).isEqualTo("The query used too much memory and was stopped");
    assertThat(Failure.detailsOf(e)).startsWith("Out of Memory Error");
    assertThat(run("SELECT 42 AS answer").rowValues().getJsonArray(0).getInteger(0)).isEqualTo(42);
  }

  @Test
  @DisplayName("errors name the missing column or table and list what exists; syntax and type errors are explained")
  void friendlyErrors() {
    ReplyException column = failure("SELECT nope FROM people");
    assertThat(Failure.classify(column)).isEqualTo(Failure.SQL);
    assertThat(column.getMessage()).startsWith(
        "Column 'nope' does not exist. Available columns: people(id, name, age, score, joined, active)");
    assertThat(failure("SELECT * FROM peple").getMessage())
        .isEqualTo("Table 'peple' does not exist. Available tables: people");
    ReplyException syntax = failure("SELEC * FROM people");
    assertThat(Failure.messageOf(syntax)).isEqualTo("SQL syntax error at or near 'SELEC'");
    assertThat(Failure.detailsOf(syntax)).contains("syntax error");
    assertThat(failure("SELECT name + 1 FROM people").getMessage()).startsWith("Type mismatch: ");
    assertThat(Failure.classify(failure("SELECT name + 1 FROM people"))).isEqualTo(Failure.SQL);
  }

  @Test
  @DisplayName("the cache revalidates on every use: unchanged files are not downloaded again, changed ones are")
  void revalidation() {
    run("SELECT count(*) FROM people");
    long fetched = people.bodyBytes();
    run("SELECT count(*) FROM people");
    assertThat(people.bodyBytes()).as("an unchanged file moves no byte").isEqualTo(fetched);
    assertThat(people.requests()).as("its last 64 KB (all of it), then a 304").isEqualTo(2);

    // Several megabytes, so the new version arrives in many chunks: a byte lost on the way would break the file.
    byte[] changed = ParquetFixtures.write(dir.resolve("more.parquet"),
        "SELECT i AS id, md5(i::VARCHAR) AS h FROM range(200000) t(i)");
    assertThat(changed.length).isGreaterThan(4 << 20);
    people.content(changed);
    assertThat(run("SELECT count(*), sum(id) FROM people").rowValues().getJsonArray(0))
        .isEqualTo(new JsonArray().add(200000).add(19999900000L));
    assertThat(people.bodyBytes() - fetched).as("the new version's footer and id column, not its h column")
        .isBetween(1L, changed.length / 3L);
    assertThat(run("SELECT count(DISTINCT h) FROM people").rowValues().getJsonArray(0).getLong(0)).isEqualTo(200000);
  }

  @Test
  @DisplayName("the answer from a cached file waits for that file's revalidation")
  void answerWaitsForRevalidation() {
    deploy(new JsonObject().put("threads", 1).put("revalidateWaitMs", 60_000));
    run("SELECT count(*) FROM people");
    long fetched = people.bodyBytes();
    ParquetServer.Held revalidations = people.holdRevalidations();
    Future<QueryResult> query = worker.run(new QueryRequest("SELECT count(*) FROM people", tables, 5_000));
    revalidations.arrived().await();
    // One worker thread takes statements in order: once this one is answered, the first has run.
    assertThat(run("SELECT 'after' AS s", Map.of()).rowValues().getJsonArray(0).getString(0)).isEqualTo("after");
    assertThat(query.isComplete()).isFalse();
    revalidations.release();
    assertThat(query.await().rowValues().getJsonArray(0).getLong(0)).isEqualTo(100);
    assertThat(people.bodyBytes()).isEqualTo(fetched);
  }

  @Test
  @DisplayName("a revalidation slower than revalidateWaitMs: the answer comes from the cached copy, says so, and the next"
      + " confirmed answer says nothing")
  void slowRevalidationAnswersFromCache() {
    // Long enough that the first and last answers' loopback server confirms within it on a loaded host, short enough
    // for the held one to give up well inside the query's 5 s.
    deploy(new JsonObject().put("revalidateWaitMs", 2_000));
    Instant before = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    assertThat(run("SELECT count(*) FROM people").note()).isNull();
    long fetched = people.bodyBytes();
    Instant after = Instant.now();
    ParquetServer.Held revalidations = people.holdRevalidations();
    QueryResult cached;
    try {
      cached = run("SELECT count(*) FROM people");
    } finally {
      revalidations.release();
    }
    assertThat(cached.rowValues().getJsonArray(0).getLong(0)).isEqualTo(100);
    Matcher note = Pattern.compile("Answered from the cached copy of people, last confirmed current at"
        + " (\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d) UTC: its server did not confirm within 2 s that the file is"
        + " unchanged, so newer data may exist.").matcher(cached.note());
    assertThat(note.matches()).as(cached.note()).isTrue();
    Instant confirmed = LocalDateTime.parse(note.group(1).replace(' ', 'T')).toInstant(ZoneOffset.UTC);
    assertThat(confirmed).isBetween(before, after);

    assertThat(run("SELECT count(*) FROM people").note()).isNull();
    assertThat(people.bodyBytes()).isEqualTo(fetched);
  }

  @Test
  @DisplayName("a cached file whose URL now fails fails the query, though the cached copy could still answer")
  void cachedButUnreachable() {
    run("SELECT count(*) FROM people");
    people.status(410);
    ReplyException e = failure("SELECT count(*) FROM people");
    assertThat(Failure.classify(e)).isEqualTo(Failure.NETWORK);
    assertThat(Failure.messageOf(e)).isEqualTo("The dataset at " + tables.get("people") + " is no longer accessible");
    assertThat(Failure.detailsOf(e)).isEqualTo("The server answered HTTP 410");
  }

  @Test
  @DisplayName("concurrent queries on one URL share a single download (a server that ignores Range)")
  void singleDownload() {
    people.ignoreRange().delayFull(300);
    List<Future<QueryResult>> queries = IntStream.range(0, 5)
        .mapToObj(i -> worker.run(new QueryRequest("SELECT count(*) FROM people", tables, 5_000))).toList();
    Future.all(queries).await();
    assertThat(people.fullDownloads()).isEqualTo(1);
  }

  @Test
  @DisplayName("a dataset URL that fails during a query gives a network error naming the URL")
  void unreachable() {
    people.status(404);
    ReplyException e = failure("SELECT * FROM people");
    assertThat(Failure.classify(e)).isEqualTo(Failure.NETWORK);
    assertThat(Failure.messageOf(e)).isEqualTo("The dataset at " + tables.get("people") + " is no longer accessible");
    assertThat(Failure.detailsOf(e)).isEqualTo("The server answered HTTP 404");
  }

  @Test
  @DisplayName("only the tables a query reads are fetched: an unread dataset is neither downloaded nor revalidated, even when broken")
  void onlyReadTablesAreFetched() {
    ParquetServer.Route other = server.route("/other.parquet").content(ParquetFixtures.people(dir));
    ParquetServer.Route broken = server.route("/broken.parquet").status(404);
    Map<String, String> three = Map.of("people", tables.get("people"), "other", server.url("/other.parquet"),
        "broken", server.url("/broken.parquet"));

    assertThat(run("SELECT count(*) FROM people", three).rowValues().getJsonArray(0).getLong(0)).isEqualTo(100);
    assertThat(run("WITH other AS (SELECT 1 AS x) SELECT 42 AS answer", three).rowValues().getJsonArray(0).getInteger(0))
        .isEqualTo(42);
    assertThat(other.requests()).isEqualTo(0);
    assertThat(broken.requests()).isEqualTo(0);
    long peopleRequests = people.requests();
    run("SELECT 42 AS answer", three);
    assertThat(people.requests()).isEqualTo(peopleRequests);

    assertThat(run("SELECT count(*) FROM people JOIN other USING (id)", three).rowValues().getJsonArray(0).getLong(0))
        .isEqualTo(100);
    assertThat(other.bodyBytes()).isPositive();
    assertThat(Failure.classify(failure(worker.run(new QueryRequest("SELECT * FROM broken", three, 5_000)))))
        .isEqualTo(Failure.NETWORK);
  }

  @Test
  @DisplayName("a conversation's cached tables are bound with the one a query reads, without asking their server: "
      + "a table read earlier is neither revalidated nor downloaded by a query that does not read it")
  void cachedTablesBoundWithoutRequests() {
    ParquetServer.Route other = server.route("/other.parquet").content(ParquetFixtures.people(dir));
    Map<String, String> both = Map.of("people", tables.get("people"), "other", server.url("/other.parquet"));
    run("SELECT count(*) FROM other", both);
    long otherRequests = other.requests();
    long otherBytes = other.bodyBytes();

    assertThat(run("SELECT count(*) FROM people WHERE active", both).rowValues().getJsonArray(0).getLong(0))
        .isEqualTo(50);
    assertThat(run("SELECT max(age) FROM people", both).rowValues().getJsonArray(0).getInteger(0))
        .isEqualTo(run("SELECT max(age) FROM other", both).rowValues().getJsonArray(0).getInteger(0));
    assertThat(other.requests()).as("only the query that reads it revalidates it").isEqualTo(otherRequests + 1);
    assertThat(other.bodyBytes()).isEqualTo(otherBytes);
  }

  @Test
  @DisplayName("a query waiting for its file to download tells its user's browsers how far it has come: "
      + "query_progress with the bytes received of those its columns need, per table; then it answers")
  void downloadProgress() {
    deploy(new JsonObject().put("progressIntervalMs", 50));
    byte[] big = ParquetFixtures.write(dir.resolve("big.parquet"),
        "SELECT range AS id, md5(range::VARCHAR) AS h FROM range(100000)");
    int sent = 256 * 1024;
    ParquetServer.Route route = server.route("/big.parquet").content(big);
    ParquetServer.Held rest = route.holdRangesAfter(sent);
    Promise<JsonObject> halfway = Promise.promise();
    vertx.eventBus().<JsonObject>consumer(Addresses.chatEvents("alice"), msg -> {
      if (msg.body().getLong("bytes_done") == sent) {
        halfway.tryComplete(msg.body());
      }
    }).completion().await();

    Future<QueryResult> query = worker.run(new QueryRequest("SELECT count(h) FROM big",
        Map.of("big", server.url("/big.parquet")), 5_000, "alice", "conversation-1"));
    JsonObject progress = halfway.future().await();
    rest.release();
    assertThat(query.await().rowValues().getJsonArray(0).getLong(0)).isEqualTo(100_000);

    assertThat(progress.getString("type")).isEqualTo(ChatEvents.QUERY_PROGRESS);
    assertThat(progress.getString("conversation_id")).isEqualTo("conversation-1");
    // The footer came with the revalidation, in the file's last 64 KB: the ranges are the column's alone.
    assertThat(ParquetFixtures.footerLength(big)).isLessThan(Revalidation.NEW_COPY_TAIL_BYTES);
    long total = route.rangeBytes();
    assertThat(total).as("the h column: most of the file, not all of it").isBetween(big.length / 2L, big.length - 1L);
    assertThat(progress.getLong("bytes_total")).isEqualTo(total);
    assertThat(progress.getJsonArray("tables")).containsExactly(new JsonObject().put("table", "big")
        .put("bytes_done", (long) sent).put("bytes_total", total));
  }

  @Test
  @DisplayName("a download past the maximum file size is stopped, also without a Content-Length")
  void maxFileSize() {
    deploy(new JsonObject().put("maxFileSizeBytes", 1000));
    ReplyException sized = failure("SELECT * FROM people");
    assertThat(sized.getMessage()).isEqualTo("The dataset at " + tables.get("people") + " is larger than the 1000 bytes"
        + " limit");
    people.ignoreRange().chunked();
    ReplyException e = failure("SELECT * FROM people");
    assertThat(Failure.classify(e)).isEqualTo(Failure.TOO_LARGE);
    assertThat(e.getMessage()).isEqualTo("The dataset at " + tables.get("people") + " is larger than the 1000 bytes limit");
  }

  @Test
  @DisplayName("the node gives its worker twice its threads and holds localWorkers.queueSize more: the query at the "
      + "limit waits and runs, the one past it is refused with 'Server busy, try again shortly'")
  void busy() {
    deploy(new JsonObject().put("threads", 1).put("queueSize", 1), 5_000, new JsonObject().put("queueSize", 1));
    people.ignoreRange().delayFull(1_000);
    Future<QueryResult> first = worker.run(new QueryRequest("SELECT 1 FROM people LIMIT 1", tables, 5_000));
    Future<QueryResult> second = worker.run(new QueryRequest("SELECT 2 FROM people LIMIT 1", tables, 5_000));
    Future<QueryResult> atTheLimit = worker.run(new QueryRequest("SELECT 3 FROM people LIMIT 1", tables, 5_000));
    ReplyException past = failure(worker.run(new QueryRequest("SELECT 4", Map.of(), 5_000)));
    assertThat(Failure.classify(past)).isEqualTo(Failure.UNAVAILABLE);
    assertThat(past.getMessage()).isEqualTo("Server busy, try again shortly");
    assertThat(atTheLimit.await().rowValues().getJsonArray(0).getInteger(0)).isEqualTo(3);
    Future.all(first, second).await();
    assertThat(run("SELECT 5", Map.of()).rowValues().getJsonArray(0).getInteger(0)).isEqualTo(5);
  }

  @Test
  @DisplayName("a refused address is a network error with the reason")
  void privateRefused() {
    deploy(new JsonObject().put("allowPrivateNetworks", false));
    ReplyException e = failure("SELECT * FROM people");
    assertThat(Failure.classify(e)).isEqualTo(Failure.NETWORK);
    assertThat(Failure.detailsOf(e)).startsWith("URL points to a private or local network address");
    assertThat(people.requests()).isZero();
  }
}
