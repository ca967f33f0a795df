package io.quarry.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.QueryResult;
import io.quarry.testing.ParquetFixtures;
import io.quarry.testing.ParquetServer;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A query's answer never depends on a byte that was not fetched: every query of the corpus is answered from a fresh
 * sparse copy (its own URL, so nothing of the file is held yet) and from the whole file (a server that ignores
 * {@code Range}), and the two answers must be identical. The file has five row groups, nested columns, names
 * with spaces, quotes, mixed case and non-ASCII letters, and bloom filters.
 */
@ExtendWith(VertxExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SparseExactnessTest {

  Vertx vertx;
  ParquetServer server;
  ParquetServer.Route sparse;
  WorkerHarness worker;
  Map<String, String> whole;
  int fresh;
  long footer;
  long size;

  @BeforeAll
  void start(@TempDir Path dir) throws Exception {
    vertx = Vertx.vertx();
    server = ParquetServer.start(vertx);
    Path file = dir.resolve("mixed.parquet");
    ParquetFixtures.create(file, "SELECT i AS id, 'name ' || i AS \"Na me\","
        + " i % 13 AS \"MiXed\", 'q' || (i % 5) AS \"quo\"\"te\", i % 3 AS \"ü名\", 'g' || (i % 40) AS grp,"
        + " (i * 0.37) % 17 AS x, {'k': i % 4, 'v': 'val' || i} AS st, [i, i % 9] AS li,"
        + " MAP {'a': i % 11, 'b': i} AS mp FROM range(20000) t(i)", 4096);
    byte[] bytes = Files.readAllBytes(file);
    footer = ParquetFixtures.footerLength(bytes);
    size = bytes.length;
    sparse = server.route("/mixed.parquet").content(bytes);
    server.route("/whole.parquet").content(bytes).ignoreRange();
    server.route("/whole-u.parquet").content(bytes).ignoreRange();
    server.route("/u.parquet").content(bytes);
    whole = Map.of("t", server.url("/whole.parquet"), "u", server.url("/whole-u.parquet"));
    worker = new WorkerHarness(vertx, dir).deploy(new JsonObject(), 60_000);
  }

  @AfterAll
  void stop() {
    vertx.close().await();
  }

  static Stream<String> corpus() {
    return Stream.of(
        "SELECT * FROM t ORDER BY id LIMIT 50",
        "SELECT t FROM t ORDER BY id LIMIT 5",
        "SELECT to_json(t) FROM t ORDER BY id LIMIT 3",
        "SELECT \"Na me\", \"MiXed\" FROM t WHERE id % 7 = 0 ORDER BY id LIMIT 20",
        "SELECT mixed, \"QUO\"\"TE\" FROM t ORDER BY id DESC LIMIT 7",
        "SELECT count(*) FROM t",
        "SELECT count(\"quo\"\"te\"), count(DISTINCT \"ü名\") FROM t",
        "SELECT a.id, b.\"ü名\" FROM t a JOIN t b ON a.id = b.id + 1 ORDER BY a.id LIMIT 10",
        "SELECT * FROM t JOIN u USING (id) ORDER BY id LIMIT 5",
        "SELECT count(*), sum(x) FROM t NATURAL JOIN u",
        "SELECT t.grp, u.x FROM t, u WHERE t.id = u.id AND t.id < 4 ORDER BY t.id",
        "WITH c AS (SELECT grp, sum(x) AS s FROM t GROUP BY grp) SELECT * FROM c ORDER BY grp",
        "SELECT id FROM t WHERE x > (SELECT avg(x) FROM t) ORDER BY id LIMIT 10",
        "SELECT (SELECT max(i.x) FROM t i WHERE i.grp = o.grp) AS m FROM t o ORDER BY o.id LIMIT 3",
        "SELECT * FROM (SELECT id, st FROM t) s WHERE s.id < 3 ORDER BY id",
        "SELECT st.k, st['v'], li[2], mp['a'] FROM t ORDER BY id LIMIT 10",
        "SELECT COLUMNS('(?i)m.*') FROM t ORDER BY 1, 2 LIMIT 5",
        "SELECT max(COLUMNS(* EXCLUDE (st, li, mp))) FROM t",
        "SELECT * EXCLUDE (st, li, mp) FROM t ORDER BY id LIMIT 5",
        "SELECT * REPLACE (id * 2 AS id) FROM t ORDER BY id LIMIT 5",
        "SELECT id, row_number() OVER (PARTITION BY grp ORDER BY x DESC, id) AS r FROM t ORDER BY id LIMIT 20",
        "SELECT count(*) FROM t WHERE grp = 'g7'",
        "SELECT count(*) FROM t WHERE grp = 'absent'",
        "SELECT count(*) FROM t WHERE \"Na me\" = 'name 12345'",
        "SELECT lower(grp) AS g, count(*) FROM t GROUP BY ALL ORDER BY ALL",
        "SELECT max(id) FILTER (WHERE \"MiXed\" > 5) FROM t",
        "SELECT DISTINCT ON (grp) grp, id FROM t ORDER BY grp, id",
        "SELECT count(*) FROM t WHERE st.k = 2 AND list_contains(li, 3)",
        // Column aliases rename the file's columns: no reference names them, so only their placeholders tell.
        "SELECT c1, c3 FROM t AS a(c1, c2, c3) ORDER BY c1 LIMIT 5",
        "SELECT sum(c1), max(c6), count(c2) FROM t AS a(c1, c2, c3, c4, c5, c6)");
  }

  @ParameterizedTest
  @MethodSource("corpus")
  @DisplayName("the sparse copy answers exactly as the whole file")
  void sameAnswer(String sql) {
    QueryResult expected = worker.run(sql, whole);
    QueryResult actual = worker.run(sql, freshSparse());
    assertThat(actual.columns()).isEqualTo(expected.columns());
    assertThat(actual.rowValues()).isEqualTo(expected.rowValues());
    assertThat(actual.totalRows()).isEqualTo(expected.totalRows());
  }

  @Test
  @DisplayName("count(*) moves only the file's tail, its footer in it; a column moves its chunks; the same query again"
      + " moves nothing")
  void movesWhatItReads() {
    Map<String, String> tables = freshSparse();
    long before = sparse.bodyBytes();
    worker.run("SELECT count(*) FROM t", tables);
    assertThat(size).isGreaterThan(Revalidation.NEW_COPY_TAIL_BYTES);
    assertThat(sparse.bodyBytes() - before).as("one request: the last 64 KB, with the footer, its length and magic"
        + " number").isEqualTo(Math.max(footer, Revalidation.NEW_COPY_TAIL_BYTES));
    long ranges = sparse.rangeRequests();
    worker.run("SELECT count(*) FROM t", tables);
    assertThat(sparse.rangeRequests()).isEqualTo(ranges);

    long footerOnly = sparse.bodyBytes();
    worker.run("SELECT sum(id) FROM t", tables);
    long idBytes = sparse.bodyBytes() - footerOnly;
    assertThat(idBytes).isPositive();
    worker.run("SELECT sum(id) FROM t", tables);
    worker.run("SELECT max(id) FROM t WHERE id > 10", tables);
    assertThat(sparse.bodyBytes() - footerOnly).as("revalidations are 304s").isEqualTo(idBytes);
  }

  /** Both tables on URLs not used before: the worker holds nothing of them yet. */
  private Map<String, String> freshSparse() {
    fresh++;
    return Map.of("t", server.url("/mixed.parquet") + "?v=" + fresh, "u", server.url("/u.parquet") + "?v=" + fresh);
  }
}
