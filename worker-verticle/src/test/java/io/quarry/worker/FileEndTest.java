package io.quarry.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.FileEnd;
import io.quarry.bus.QueryRequest;
import io.quarry.bus.QueryResult;
import io.quarry.bus.Source;
import io.quarry.testing.ParquetFixtures;
import io.quarry.testing.ParquetServer;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A query that brings the last bytes of a file adding it just read ({@link FileEnd}): a worker holding no copy starts
 * one from them without asking the origin, and fetches what a query reads beyond them as ever; bytes that do not make
 * a copy are not trusted, the origin is asked.
 */
@ExtendWith(VertxExtension.class)
class FileEndTest {

  @TempDir
  Path dir;

  ParquetServer server;
  WorkerHarness harness;
  byte[] file;

  @BeforeEach
  void start(Vertx vertx) {
    server = ParquetServer.start(vertx);
    harness = new WorkerHarness(vertx, dir);
    harness.deploy(new JsonObject().put("freshForMs", 60_000), 5_000);
    // Larger than worker.wholeFileBelowBytes, so the copy is sparse: the footer now, columns when read.
    file = ParquetFixtures.write(dir.resolve("big.parquet"), "SELECT i AS id, md5(i::VARCHAR) AS h FROM range(100000) t(i)");
    assertThat(file.length).isGreaterThan(1 << 20);
  }

  private FileEnd end(String url, int length, byte[] bytes) {
    int from = bytes.length - length;
    return new FileEnd(url, from, bytes.length, null, null, null,
        Arrays.copyOfRange(bytes, from, bytes.length));
  }

  private QueryResult run(String sql, String url, FileEnd end) {
    return harness.client.run(new QueryRequest(sql, Map.of("t", url), 5_000, "", "", "", null,
        List.of(new Source(null, url, null, null, (long) file.length)), end == null ? List.of() : List.of(end)))
        .await();
  }

  @Test
  @DisplayName("a copy starts from the bytes the add read: the engine's look at the file asks its origin nothing, and"
      + " a column read later is fetched as ever")
  void startsFromTheEnd() {
    ParquetServer.Route route = server.route("/big.parquet").content(file);
    String url = server.url("/big.parquet");
    QueryResult counted = run("SELECT count(*) FROM t", url, end(url, 64 * 1024, file));
    assertThat(counted.rowValues().getJsonArray(0).getLong(0)).isEqualTo(100_000);
    assertThat(route.requests()).as("requests to the origin").isZero();

    QueryResult summed = run("SELECT sum(id) FROM t", url, null);
    assertThat(summed.rowValues().getJsonArray(0).getLong(0)).isEqualTo(4_999_950_000L);
    assertThat(route.rangeRequests()).as("the id column, fetched").isPositive();
  }

  @Test
  @DisplayName("bytes that do not end with a footer are not trusted: the origin is asked, and the query answers")
  void notTrusted() {
    ParquetServer.Route route = server.route("/big.parquet").content(file);
    String url = server.url("/big.parquet");
    byte[] garbage = new byte[file.length];
    QueryResult counted = run("SELECT count(*) FROM t", url, end(url, 64 * 1024, garbage));
    assertThat(counted.rowValues().getJsonArray(0).getLong(0)).isEqualTo(100_000);
    assertThat(route.requests()).as("requests to the origin").isPositive();
  }
}
