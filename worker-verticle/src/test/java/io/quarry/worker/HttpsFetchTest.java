package io.quarry.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.Failure;
import io.quarry.bus.QueryRequest;
import io.quarry.bus.QueryResult;
import io.quarry.bus.net.AddressPolicy;
import io.quarry.bus.net.Deadline;
import io.quarry.bus.net.OutboundHttp;
import io.quarry.testing.Failures;
import io.quarry.testing.BusCertificates;
import io.quarry.testing.ParquetFixtures;
import io.quarry.testing.ParquetServer;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.net.URI;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Columns fetched from an https origin, over HTTP/2 when it offers it (as most CDNs do), else HTTP/1.1: many ranges at
 * once over a few kept connections, each written where it belongs, answering exactly as DuckDB over the whole file
 * does.
 */
@ExtendWith(VertxExtension.class)
class HttpsFetchTest {

  private static final String SQL = "SELECT count(DISTINCT a), sum(g) FROM t";

  @TempDir
  static Path shared;
  static BusCertificates.Identity origin;
  static Path wide;
  /** The answer over the local file, from DuckDB itself. */
  static JsonArray whole;

  @TempDir
  Path dir;

  Vertx vertx;
  ParquetServer server;
  WorkerHarness harness;

  /** Row groups of 10,000 rows: many column chunks, so many ranges under way at once. */
  @BeforeAll
  static void files() throws Exception {
    origin = BusCertificates.authority(shared.resolve("ca"), "origin").issue("files");
    wide = shared.resolve("wide.parquet");
    ParquetFixtures.create(wide, "SELECT i AS id, md5(i::VARCHAR) AS a, md5((i * 7)::VARCHAR) AS b, i % 97 AS g"
        + " FROM range(400000) t(i)", 10_000);
    try (Connection duck = DriverManager.getConnection("jdbc:duckdb:"); Statement s = duck.createStatement();
        ResultSet rs = s.executeQuery(SQL.replace("FROM t", "FROM read_parquet('" + wide + "')"))) {
      rs.next();
      whole = new JsonArray().add(new JsonArray().add(rs.getLong(1)).add(rs.getLong(2)));
    }
  }

  @BeforeEach
  void start(Vertx vertx) throws Exception {
    this.vertx = vertx;
    server = ParquetServer.startTls(vertx, origin, true);
    harness = new WorkerHarness(vertx, dir);
    harness.deploy(new JsonObject().put("originCaFile", origin.ca().toString()), 30_000);
  }

  @Test
  @DisplayName("a sparse copy fetched over https from an origin offering HTTP/2: its ranges at once over at most two"
      + " connections, the answer DuckDB gives over the whole file")
  void http2() {
    ParquetServer.Route route = server.route("/wide.parquet").file(wide);
    assertThat(answer(server.url("/wide.parquet"))).isEqualTo(whole);
    assertThat(route.rangeRequests()).isGreaterThan(10);
    assertThat(route.http2Requests()).as("every request over HTTP/2").isEqualTo(route.requests());
    assertThat(server.connections()).as("at most two").isBetween(1L, 2L);
  }

  @Test
  @DisplayName("over HTTP/2, a transfer has up to 32 ranges under way at once once the origin's first answer shows the"
      + " protocol, not worker.fetchConnections (8), 16 on each of two connections though the origin allows 100 on"
      + " one: a far origin's round trips leave its link idle less, and both connections' windows carry it")
  void http2Streams() throws Exception {
    ParquetServer.Route route = server.route("/wide.parquet").file(wide);
    // Every range answers its head and first bytes, then waits: only requests sent at once get that far together.
    ParquetServer.Held held = route.holdRangesAfter(1);
    Future<QueryResult> answer = harness.client.run(new QueryRequest(SQL, Map.of("t", server.url("/wide.parquet")),
        30_000));
    held.arrived(RangeFetch.MAX_STREAMS).toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
    assertThat(route.rangeRequests()).as("no more than the cap").isEqualTo(RangeFetch.MAX_STREAMS);
    assertThat(route.http2Requests()).isEqualTo(route.requests());
    assertThat(server.connections()).as("the second opened once the first carried 16").isEqualTo(2);
    held.release();
    assertThat(rows(answer.await())).isEqualTo(whole);
  }

  @Test
  @DisplayName("from an HTTP/1.1 origin, a transfer still has worker.fetchConnections (8) ranges under way at once, a"
      + " connection each")
  void http1Connections() throws Exception {
    // Plain http: over https, Vert.x 5.0 pools an origin that declines HTTP/2 as an HTTP/2 one (two connections).
    ParquetServer http1 = ParquetServer.start(vertx);
    ParquetServer.Route route = http1.route("/wide.parquet").file(wide).throttle(50_000_000);
    ParquetServer.Held held = route.holdRangesAfter(1);
    Future<QueryResult> answer = harness.client.run(new QueryRequest(SQL, Map.of("t", http1.url("/wide.parquet")),
        30_000));
    held.arrived(8).toCompletionStage().toCompletableFuture().get(20, TimeUnit.SECONDS);
    assertThat(route.rangeRequests()).isEqualTo(8);
    assertThat(http1.connections()).as("at most worker.fetchConnections").isBetween(1L, 8L);
    held.release();
    assertThat(rows(answer.await())).isEqualTo(whole);
  }

  @Test
  @DisplayName("an HTTP/2 origin that resets a range's stream halfway fails the query clearly; the next query works, and"
      + " no connection is lost to the reset")
  void streamReset() {
    ParquetServer.Route route = server.route("/wide.parquet").file(wide)
        .dropRangesAfter(10_000);
    String url = server.url("/wide.parquet");
    ReplyException e = (ReplyException) Failures.failure(harness.client.run(new QueryRequest(SQL, Map.of("t", url),
        30_000)));
    assertThat(Failure.classify(e)).isEqualTo(Failure.NETWORK);
    assertThat(Failure.messageOf(e)).isEqualTo("The dataset at " + url + " is no longer accessible");
    assertThat(Failure.detailsOf(e)).isEqualTo("The server cut the transfer short (HTTP/2 stream reset: NO_ERROR)");
    route.dropRangesAfter(-1);
    assertThat(answer(url)).isEqualTo(whole);
    // A reset that cost its connection would leave three: the one lost, and the two the next transfer widens to.
    assertThat(server.connections()).as("no connection lost to the reset").isLessThanOrEqualTo(2);
  }

  @Test
  @DisplayName("an HTTP/2 origin that closes its connections every 5 requests (GOAWAY, as nginx does every 1,000):"
      + " the streams it refused are asked again on a new connection, and the answer is whole")
  void goAway() {
    ParquetServer.Route route = server.goAwayEvery(5).route("/wide.parquet").file(wide);
    assertThat(answer(server.url("/wide.parquet"))).isEqualTo(whole);
    assertThat(route.rangeRequests()).isGreaterThan(20);
    assertThat(server.connections()).as("a new one after each GOAWAY").isGreaterThan(4);
  }

  @Test
  @DisplayName("a stream the HTTP/2 origin refuses unanswered (REFUSED_STREAM) is asked once more; twice in a row fails"
      + " the query, saying so")
  void refusedStream() {
    ParquetServer.Route route = server.route("/wide.parquet").file(wide).refuseStreams(1);
    String url = server.url("/wide.parquet");
    assertThat(answer(url)).isEqualTo(whole);
    server.reset();
    ParquetServer.Route again = server.route("/wide.parquet").file(wide).refuseStreams(Long.MAX_VALUE);
    String other = server.url("/wide.parquet");
    ReplyException e = (ReplyException) Failures.failure(harness.client.run(new QueryRequest(SQL, Map.of("t", other),
        30_000)));
    assertThat(Failure.classify(e)).isEqualTo(Failure.NETWORK);
    assertThat(Failure.detailsOf(e)).isEqualTo("The server cut the transfer short (HTTP/2 stream reset:"
        + " REFUSED_STREAM)");
    assertThat(again.requests()).isEqualTo(2);
    assertThat(route.requests()).isGreaterThan(10);
  }

  @Test
  @DisplayName("a new connection to an https origin resumes the TLS session of the one before (one round trip less)")
  void sessionResumed() {
    OutboundHttp http = new OutboundHttp(vertx, AddressPolicy.of(true, ""), 10_000, origin.ca().toString(), 1);
    ParquetServer http1 = ParquetServer.startTls(vertx, origin, false);
    http1.route("/wide.parquet").file(wide);
    URI url = URI.create(http1.url("/wide.parquet"));
    for (int i = 0; i < 3; i++) {
      // Closed after each answer, so that each request needs a connection of its own.
      OutboundHttp.Exchange exchange = http.send(HttpMethod.GET, url, Map.of("Range", "bytes=0-3", "Connection",
          "close"), new Deadline(vertx, 10_000)).await();
      assertThat(exchange.response().statusCode()).isEqualTo(206);
    }
    assertThat(http1.connections()).isEqualTo(3);
    assertThat(http1.resumedSessions()).isEqualTo(2);
  }

  @Test
  @DisplayName("from an https origin of HTTP/1.1 only: on at most worker.fetchConnections (8) connections, the same"
      + " answer")
  void http1() {
    ParquetServer http1 = ParquetServer.startTls(vertx, origin, false);
    ParquetServer.Route route = http1.route("/wide.parquet").file(wide).throttle(50_000_000);
    assertThat(answer(http1.url("/wide.parquet"))).isEqualTo(whole);
    assertThat(route.rangeRequests()).isGreaterThan(10);
    assertThat(route.http2Requests()).isZero();
    assertThat(http1.connections()).as("at most worker.fetchConnections").isBetween(1L, 8L);
  }

  /** The query's answer, as longs. */
  private JsonArray answer(String url) {
    return rows(harness.client.run(new QueryRequest(SQL, Map.of("t", url), 30_000)).await());
  }

  private static JsonArray rows(QueryResult result) {
    JsonArray row = result.rowValues().getJsonArray(0);
    assertThat(row.getLong(0)).isEqualTo(400_000);
    return new JsonArray().add(new JsonArray().add(row.getLong(0)).add(row.getLong(1)));
  }
}
