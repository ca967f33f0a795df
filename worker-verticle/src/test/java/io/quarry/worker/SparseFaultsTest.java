package io.quarry.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.quarry.bus.Failure;
import io.quarry.bus.QueryRequest;
import io.quarry.bus.QueryResult;
import io.quarry.bus.QueryStops;
import io.quarry.bus.Sizes;
import io.quarry.testing.Failures;
import io.quarry.testing.ParquetFixtures;
import io.quarry.testing.ParquetServer;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.BitSet;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sparse copies in a world that misbehaves: concurrent queries, files that change, servers that answer short or
 * drop the connection, a full cache, queries that time out, and the limits. Every failure is a clear message, the
 * worker survives, and the next query works.
 */
@ExtendWith(VertxExtension.class)
class SparseFaultsTest {

  private static final int ROWS = 50_000;
  private static final long ID_SUM = (long) ROWS * (ROWS - 1) / 2;

  @TempDir
  Path dir;

  Vertx vertx;
  ParquetServer server;
  WorkerHarness worker;
  Path file;
  byte[] bytes;
  ParquetServer.Route route;
  Map<String, String> tables;

  @BeforeEach
  void start(Vertx vertx) throws Exception {
    this.vertx = vertx;
    server = ParquetServer.start(vertx);
    file = dir.resolve("t.parquet");
    bytes = fixture(file, 0);
    route = server.route("/t.parquet").content(bytes);
    tables = Map.of("t", server.url("/t.parquet"));
    worker = new WorkerHarness(vertx, dir).deploy(new JsonObject(), 60_000);
  }

  /** Five row groups of id, h (an md5, most of the file) and k; ids start at {@code first}. */
  private static byte[] fixture(Path file, int first) throws Exception {
    ParquetFixtures.create(file, "SELECT i + " + first + " AS id, md5(i::VARCHAR) AS h, i % 7 AS k FROM range(" + ROWS
        + ") t(i)", 10_000);
    return Files.readAllBytes(file);
  }

  private JsonArray row(String sql) {
    return worker.run(sql, tables).rowValues().getJsonArray(0);
  }

  @Test
  @DisplayName("two queries needing different columns at once both answer, and a third needing both shares their"
      + " fetches: the bytes moved are those of the two columns once")
  void concurrentQueries() {
    Map<String, String> sequential = Map.of("t", tables.get("t") + "?sequential");
    worker.run("SELECT sum(id) FROM t", sequential);
    worker.run("SELECT count(DISTINCT h) FROM t", sequential);
    long once = route.rangeBytes();
    // A first query brings the footer, so the three below all find the same sparse copy.
    assertThat(row("SELECT count(*) FROM t").getLong(0)).isEqualTo(ROWS);
    ParquetServer.Held held = route.holdRangeRequests();
    Future<QueryResult> ids = worker.start("SELECT sum(id) FROM t", tables);
    Future<QueryResult> hashes = worker.start("SELECT count(DISTINCT h) FROM t", tables);
    held.arrived(2).await();
    Future<QueryResult> both = worker.start("SELECT sum(id), count(DISTINCT h) FROM t", tables);
    held.release();
    assertThat(ids.await().rowValues().getJsonArray(0).getLong(0)).isEqualTo(ID_SUM);
    assertThat(hashes.await().rowValues().getJsonArray(0).getLong(0)).isEqualTo(ROWS);
    assertThat(both.await().rowValues().getJsonArray(0)).isEqualTo(new JsonArray().add(ID_SUM).add(ROWS));
    assertThat(route.rangeBytes() - once).isEqualTo(once);
  }

  @Test
  @DisplayName("a file that changes between its footer and its columns: the query runs again on the new version")
  void changedBetweenFooterAndChunks() throws Exception {
    assertThat(row("SELECT count(*) FROM t").getLong(0)).isEqualTo(ROWS);
    ParquetServer.Held held = route.holdRangeRequests();
    Future<QueryResult> query = worker.start("SELECT sum(id) FROM t", tables);
    held.arrived().await();
    route.content(fixture(dir.resolve("v2.parquet"), 1_000));
    held.release();
    assertThat(query.await().rowValues().getJsonArray(0).getLong(0)).isEqualTo(ID_SUM + 1_000L * ROWS);
    assertThat(row("SELECT min(id), count(DISTINCT h) FROM t")).isEqualTo(new JsonArray().add(1_000).add(ROWS));
  }

  @Test
  @DisplayName("a large file whose footer DuckDB cannot read fails its queries with DuckDB's reason, naming its URL and"
      + " no local path; once it is mended, the next query reads it")
  void unreadableFooter() throws Exception {
    byte[] broken = bytes.clone();
    int footer = (int) (bytes.length - ParquetFixtures.footerLength(bytes));
    java.util.Arrays.fill(broken, footer + 4, bytes.length - 8, (byte) 0xFF);
    route.content(broken);
    ReplyException e = worker.failure("SELECT count(*) FROM t", tables);
    assertThat(Failure.classify(e)).isEqualTo(Failure.BAD_REQUEST);
    assertThat(Failure.messageOf(e)).startsWith("The query engine cannot read the file at " + tables.get("t") + ": ")
        .doesNotContain(dir.toString());
    assertThat(Failure.detailsOf(e)).doesNotContain(dir.toString()).doesNotContain("LINE 1");
    route.content(bytes);
    assertThat(row("SELECT count(*) FROM t").getLong(0)).isEqualTo(ROWS);
  }

  @Test
  @DisplayName("a server that sends fewer bytes than the range asked for fails the query clearly; the next works")
  void shortRange() {
    route.shortRanges(true);
    ReplyException e = worker.failure("SELECT sum(id) FROM t", tables);
    assertThat(Failure.classify(e)).isEqualTo(Failure.NETWORK);
    assertThat(Failure.messageOf(e)).isEqualTo("The dataset at " + tables.get("t") + " is no longer accessible");
    assertThat(Failure.detailsOf(e)).startsWith("The server sent other bytes than the range asked for (bytes ");
    route.shortRanges(false);
    assertThat(row("SELECT sum(id) FROM t").getLong(0)).isEqualTo(ID_SUM);
  }

  @Test
  @DisplayName("a server whose Content-Range names other bytes than the file's tail asked for is at fault: the query"
      + " fails as a network error that says so, not as an engine error on a misplaced footer; the next works")
  void otherBytesThanTheTail() {
    route.misplaceRanges(1_000);
    ReplyException e = worker.failure("SELECT sum(id) FROM t", tables);
    assertThat(Failure.classify(e)).isEqualTo(Failure.NETWORK);
    assertThat(Failure.messageOf(e)).isEqualTo("The dataset at " + tables.get("t") + " is no longer accessible");
    assertThat(Failure.detailsOf(e)).startsWith("The server sent other bytes than the range asked for (bytes ")
        .endsWith(" for bytes=-" + Revalidation.NEW_COPY_TAIL_BYTES + ")");
    route.misplaceRanges(0);
    assertThat(row("SELECT sum(id) FROM t").getLong(0)).isEqualTo(ID_SUM);
  }

  @Test
  @DisplayName("a connection dropped in the middle of a range fails the query clearly; the next works")
  void droppedMidRange() {
    route.dropRangesAfter(10_000);
    ReplyException e = worker.failure("SELECT count(DISTINCT h) FROM t", tables);
    assertThat(Failure.classify(e)).isEqualTo(Failure.NETWORK);
    assertThat(Failure.detailsOf(e)).isEqualTo("Connection was closed");
    assertThat(Failure.messageOf(e)).isEqualTo("The dataset at " + tables.get("t") + " is no longer accessible");
    route.dropRangesAfter(-1);
    assertThat(row("SELECT count(DISTINCT h) FROM t").getLong(0)).isEqualTo(ROWS);
  }

  @Test
  @DisplayName("a cache far smaller than what queries fetch: a copy a running query uses is not evicted under it")
  void evictionUnderARunningQuery() {
    worker.deploy(new JsonObject().put("cacheMaxBytes", bytes.length / 4), 60_000);
    ParquetServer.Route other = server.route("/other.parquet").content(bytes);
    Map<String, String> others = Map.of("t", server.url("/other.parquet"));
    assertThat(row("SELECT count(*) FROM t").getLong(0)).isEqualTo(ROWS);
    ParquetServer.Held held = route.holdRangeRequests();
    Future<QueryResult> pinned = worker.start("SELECT count(DISTINCT h), sum(id) FROM t", tables);
    held.arrived().await();
    for (int i = 0; i < 3; i++) {
      assertThat(worker.run("SELECT count(DISTINCT h), sum(k) FROM t", Map.of("t", others.get("t") + "?" + i))
          .rowValues().getJsonArray(0).getLong(0)).isEqualTo(ROWS);
    }
    held.release();
    assertThat(pinned.await().rowValues().getJsonArray(0)).isEqualTo(new JsonArray().add(ROWS).add(ID_SUM));
    assertThat(other.rangeBytes()).isGreaterThan(bytes.length);
  }

  @Test
  @DisplayName("a query that times out while its columns download fails with the timeout message, and its fetch is"
      + " cancelled: the next query fetches those columns anew and answers")
  void timeoutDuringFetch() {
    worker.deploy(new JsonObject(), 1_000);
    ParquetServer.Held rest = route.holdRangesAfter(1_000);
    ReplyException e = worker.failure("SELECT count(DISTINCT h) FROM t", tables);
    assertThat(Failure.classify(e)).isEqualTo(Failure.TIMEOUT);
    assertThat(e.getMessage()).isEqualTo("Query timed out after 1 s while the data was still downloading and was"
        + " cancelled");
    long requests = route.rangeRequests();
    rest.release();
    route.holdRangesAfter(Long.MAX_VALUE).release();
    assertThat(row("SELECT count(DISTINCT h) FROM t").getLong(0)).isEqualTo(ROWS);
    assertThat(route.rangeRequests()).as("a cancelled fetch is not joined").isGreaterThan(requests);
  }

  @Test
  @DisplayName("a worker whose disk fills while it fetches fails the query saying so, and the next query that fits"
      + " works (needs a 1 MB tmpfs: root with CAP_SYS_ADMIN, else skipped)")
  void diskFull() throws Exception {
    Path data = dir.resolve("small-disk");
    Path home = data.resolve("worker-1");
    Files.createDirectories(home);
    Process mount = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", home.toString())
        .redirectErrorStream(true).start();
    assumeTrue(mount.waitFor() == 0, "mounting a tmpfs is not allowed here");
    try {
      worker.deploy(new JsonObject().put("dataDir", data.toString()), 60_000);
      ReplyException e = worker.failure("SELECT count(DISTINCT h) FROM t", tables);
      assertThat(Failure.classify(e)).isEqualTo(Failure.UNAVAILABLE);
      assertThat(e.getMessage()).isEqualTo("The query worker's disk is full: it could not store the data of "
          + tables.get("t") + ". Try again shortly.");
      assertThat(row("SELECT sum(id) FROM t").getLong(0)).isEqualTo(ID_SUM);
    } finally {
      worker.undeploy();
      new ProcessBuilder("umount", "-l", home.toString()).start().waitFor();
    }
  }

  @Test
  @DisplayName("a stop published for a query's stop key fails it at once and cancels its fetch; a query with that key"
      + " that arrives later is refused without a request")
  void stopKey() {
    ParquetServer.Held rest = route.holdRangesAfter(1_000);
    Future<QueryResult> query = worker.client.run(new QueryRequest("SELECT count(DISTINCT h) FROM t", tables, 60_000,
        "", "", "turn-1"));
    rest.arrived().await();
    QueryStops.publish(vertx.eventBus(), "turn-1");
    ReplyException e = (ReplyException) Failures.failure(query);
    assertThat(Failure.classify(e)).isEqualTo(Failure.CONFLICT);
    assertThat(e.getMessage()).isEqualTo("The query was stopped");
    long requests = route.requests();
    ReplyException late = (ReplyException) Failures.failure(worker.client.run(new QueryRequest(
        "SELECT count(*) FROM t", tables, 60_000, "", "", "turn-1")));
    assertThat(late.getMessage()).isEqualTo("The query was stopped");
    assertThat(route.requests()).isEqualTo(requests);

    rest.release();
    route.holdRangesAfter(Long.MAX_VALUE).release();
    long ranges = route.rangeRequests();
    assertThat(row("SELECT count(DISTINCT h) FROM t").getLong(0)).isEqualTo(ROWS);
    assertThat(route.rangeRequests()).as("a cancelled fetch is not joined").isGreaterThan(ranges);
  }

  @Test
  @DisplayName("worker.maxQueryFetchBytes: a query that moves exactly the limit runs; one byte less and it fails"
      + " before moving any, saying how much it would read")
  void queryFetchLimit() throws Exception {
    long need = columnBytes("h");
    worker.deploy(new JsonObject().put("maxQueryFetchBytes", need), 60_000);
    assertThat(row("SELECT count(DISTINCT h) FROM t").getLong(0)).isEqualTo(ROWS);

    worker.deploy(new JsonObject().put("maxQueryFetchBytes", need - 1), 60_000);
    assertThat(row("SELECT count(*) FROM t").getLong(0)).as("the footer alone is within it").isEqualTo(ROWS);
    long before = route.rangeBytes();
    ReplyException e = worker.failure("SELECT count(DISTINCT h) FROM t", tables);
    assertThat(Failure.classify(e)).isEqualTo(Failure.TOO_LARGE);
    assertThat(e.getMessage()).isEqualTo("This query would read " + Sizes.human(need) + " of "
        + Sizes.human(bytes.length) + " from " + tables.get("t") + ", over the limit of " + Sizes.human(need - 1));
    assertThat(route.rangeBytes()).isEqualTo(before);
  }

  @Test
  @DisplayName("worker.maxQueryFetchBytes holds for a server that ignores Range too: the whole file at the limit"
      + " runs, past it fails")
  void queryFetchLimitWholeFile() {
    route.ignoreRange();
    worker.deploy(new JsonObject().put("maxQueryFetchBytes", bytes.length), 60_000);
    assertThat(row("SELECT count(*) FROM t").getLong(0)).isEqualTo(ROWS);
    worker.deploy(new JsonObject().put("maxQueryFetchBytes", bytes.length - 1), 60_000);
    ReplyException e = worker.failure("SELECT count(*) FROM t", tables);
    assertThat(e.getMessage()).isEqualTo("This query would read " + Sizes.human(bytes.length) + " of "
        + Sizes.human(bytes.length) + " from " + tables.get("t") + ", over the limit of " + Sizes.human(bytes.length - 1));
  }

  @Test
  @DisplayName("worker.maxFileSizeBytes: a file of exactly the limit is read, one a byte larger is refused")
  void fileSizeLimit() {
    worker.deploy(new JsonObject().put("maxFileSizeBytes", bytes.length), 60_000);
    assertThat(row("SELECT sum(id) FROM t").getLong(0)).isEqualTo(ID_SUM);
    worker.deploy(new JsonObject().put("maxFileSizeBytes", bytes.length - 1), 60_000);
    ReplyException e = worker.failure("SELECT sum(id) FROM t", tables);
    assertThat(Failure.classify(e)).isEqualTo(Failure.TOO_LARGE);
    assertThat(e.getMessage()).isEqualTo("The dataset at " + tables.get("t") + " is larger than the "
        + Sizes.human(bytes.length - 1) + " limit");
  }

  @Test
  @DisplayName("worker.maxFooterBytes: a footer of exactly the limit is read, one a byte longer is refused")
  void footerLimit() {
    long footer = ParquetFixtures.footerLength(bytes);
    worker.deploy(new JsonObject().put("maxFooterBytes", footer), 60_000);
    assertThat(row("SELECT sum(id) FROM t").getLong(0)).isEqualTo(ID_SUM);
    worker.deploy(new JsonObject().put("maxFooterBytes", footer - 1), 60_000);
    ReplyException e = worker.failure("SELECT sum(id) FROM t", tables);
    assertThat(Failure.classify(e)).isEqualTo(Failure.TOO_LARGE);
    assertThat(e.getMessage()).isEqualTo("The metadata of the dataset at " + tables.get("t") + " is "
        + Sizes.human(footer) + ", over the " + Sizes.human(footer - 1) + " limit");
  }


  /** The bytes a query reading this column needs, from the layout DuckDB reads of the whole file. */
  private long columnBytes(String column) throws Exception {
    Layout layout;
    try (Connection database = DuckInstances.newDatabase(1)) {
      layout = Layout.read(database, file, bytes.length - ParquetFixtures.footerLength(bytes));
    }
    BitSet one = new BitSet();
    one.set(layout.columns().indexOf(column));
    return ByteRange.total(layout.rangesOf(one));
  }
}
