package io.quarry.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.QueryRequest;
import io.quarry.bus.QueryResult;
import io.quarry.testing.BusCertificates;
import io.quarry.testing.ParquetFixtures;
import io.quarry.testing.ParquetServer;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Columns fetched from an https origin (one that offers HTTP/2, as most CDNs do): many ranges over a few kept
 * connections, each written where it belongs, answering exactly as the whole file does.
 */
@ExtendWith(VertxExtension.class)
class HttpsFetchTest {

  @TempDir
  Path dir;

  Vertx vertx;
  ParquetServer server;
  WorkerHarness harness;

  @BeforeEach
  void start(Vertx vertx) throws Exception {
    this.vertx = vertx;
    BusCertificates.Identity origin = BusCertificates.authority(dir.resolve("ca"), "origin").issue("files");
    server = ParquetServer.startTls(vertx, origin, true);
    harness = new WorkerHarness(vertx, dir);
    harness.deploy(new JsonObject().put("originCaFile", origin.ca().toString()), 30_000);
  }

  @Test
  @DisplayName("a sparse copy fetched over https, on at most worker.fetchConnections (8) connections, answers as the whole"
      + " file does")
  void sameAnswer() {
    Path local = dir.resolve("wide.parquet");
    // Row groups of 10,000 rows: many column chunks, so many ranges under way at once.
    ParquetFixtures.create(local, "SELECT i AS id, md5(i::VARCHAR) AS a, md5((i * 7)::VARCHAR) AS b, i % 97 AS g"
        + " FROM range(400000) t(i)", 10_000);
    ParquetServer.Route route = server.route("/wide.parquet").file(local).throttle(50_000_000);
    ParquetServer plain = ParquetServer.start(vertx);
    plain.route("/whole.parquet").file(local).ignoreRange();
    String sql = "SELECT count(DISTINCT a), sum(g) FROM t";
    QueryResult remote = harness.client.run(new QueryRequest(sql, Map.of("t", server.url("/wide.parquet")), 30_000))
        .await();
    QueryResult whole = harness.client.run(new QueryRequest(sql, Map.of("t", plain.url("/whole.parquet")), 30_000))
        .await();
    assertThat(remote.rowValues()).isEqualTo(whole.rowValues());
    assertThat(remote.rowValues().getJsonArray(0).getLong(0)).isEqualTo(400_000);
    assertThat(route.http2Requests()).as("HTTP/2 is not asked for").isZero();
    assertThat(route.rangeRequests()).isGreaterThan(10);
    assertThat(server.connections()).as("at most worker.fetchConnections").isBetween(1L, 8L);
  }
}
