package io.quarry.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.DataFormat;
import io.quarry.bus.Failure;
import io.quarry.bus.QueryRequest;
import io.quarry.bus.QueryResult;
import io.quarry.testing.Failures;
import io.quarry.testing.ParquetServer;
import io.quarry.testing.DuckRows;
import io.quarry.testing.TextFixtures;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * CSV, TSV and JSON files, plain and compressed, read by a worker as bare DuckDB reads the same bytes: the same
 * columns and types, the same rows. A row the reader refuses refuses the file, naming its line; a file read once is
 * revalidated like a Parquet copy and fetched whole again only when it changed.
 */
@ExtendWith(VertxExtension.class)
class TextFilesTest {

  /** Every row as text, in a digest that does not depend on the order rows come in. */
  private static final String WHOLE_ROWS = "SELECT count(*) AS n, md5(coalesce(string_agg(r, chr(30) ORDER BY r), ''))"
      + " AS digest FROM (SELECT CAST(x AS VARCHAR) AS r FROM %s AS x)";

  @TempDir
  Path dir;

  ParquetServer server;
  WorkerHarness harness;

  @BeforeEach
  void start(Vertx vertx) {
    server = ParquetServer.start(vertx);
    harness = new WorkerHarness(vertx, dir);
    harness.deploy(new JsonObject(), 30_000);
  }

  static Stream<Arguments> files() {
    return Stream.of(
        Arguments.of("people.csv", DataFormat.CSV, "csv"),
        Arguments.of("people.tsv", DataFormat.CSV, "tsv"),
        Arguments.of("people.ndjson", DataFormat.JSON, "ndjson"),
        Arguments.of("people.json", DataFormat.JSON, "json"),
        Arguments.of("people.csv.gz", DataFormat.CSV, "csv.gz"),
        Arguments.of("people.csv.zst", DataFormat.CSV, "csv.zst"),
        Arguments.of("people.ndjson.gz", DataFormat.JSON, "ndjson.gz"));
  }

  private byte[] bytes(String kind) {
    return switch (kind) {
      case "csv" -> TextFixtures.csv();
      case "tsv" -> TextFixtures.tsv();
      case "ndjson" -> TextFixtures.ndjson();
      case "json" -> TextFixtures.jsonArray();
      case "csv.gz" -> TextFixtures.gzip(TextFixtures.csv());
      case "csv.zst" -> TextFixtures.zstd(TextFixtures.csv(), dir);
      case "ndjson.gz" -> TextFixtures.gzip(TextFixtures.ndjson());
      default -> throw new IllegalArgumentException(kind);
    };
  }

  private Future<QueryResult> query(String sql, String path, DataFormat format) {
    String url = server.url(path);
    return harness.client.run(new QueryRequest(sql, Map.of("t", url), 30_000, "", "", "", null, List.of(), List.of(),
        Map.of(url, format)));
  }

  @ParameterizedTest(name = "{2}")
  @MethodSource("files")
  @DisplayName("a text file's columns, types and rows are bare DuckDB's over the same bytes")
  void asBareDuckDb(String name, DataFormat format, String kind) throws Exception {
    byte[] content = bytes(kind);
    Path local = dir.resolve(name);
    Files.write(local, content);
    server.route("/" + name).content(content);

    QueryResult described = query("SELECT column_name, column_type FROM (DESCRIBE t)", "/" + name, format).await();
    QueryResult rows = query(String.format(WHOLE_ROWS, "t"), "/" + name, format).await();

    String reader = (format == DataFormat.CSV ? "read_csv" : "read_json") + "('" + local + "')";
    assertThat(described.rowValues()).isEqualTo(DuckRows.of("SELECT column_name, column_type FROM (DESCRIBE SELECT *"
        + " FROM " + reader + ")"));
    assertThat(rows.rowValues()).isEqualTo(DuckRows.of(String.format(WHOLE_ROWS, reader)));
    assertThat(rows.rowValues().getJsonArray(0).getLong(0)).isEqualTo(TextFixtures.ROWS);
  }

  @Test
  @DisplayName("a CSV row the reader refuses refuses the file with its line and the problem, not a stack or a path")
  void malformedRowNamed() {
    server.route("/broken.csv").content(TextFixtures.malformedCsv(30_000));

    Throwable refused = Failures.failure(query("SELECT count(*) FROM t", "/broken.csv", DataFormat.CSV));

    assertThat(Failure.classify(refused)).isEqualTo(Failure.BAD_REQUEST);
    String said = Failure.messageOf(refused) + " " + Failure.detailsOf(refused);
    assertThat(said).contains("CSV Error on Line: 30002").contains("Expected Number of Columns: 2 Found: 3")
        .contains(server.url("/broken.csv")).doesNotContain(dir.toString()).doesNotContain("Possible fixes");
  }

  @Test
  @DisplayName("a text file is fetched whole once; the next query revalidates it (no download), and a new version is"
      + " fetched whole and read again")
  void revalidatedLikeACopy() {
    ParquetServer.Route route = server.route("/people.csv").content(TextFixtures.csv());
    assertThat(count("/people.csv")).isEqualTo(TextFixtures.ROWS);
    assertThat(count("/people.csv")).isEqualTo(TextFixtures.ROWS);
    assertThat(route.fullDownloads()).as("whole downloads of an unchanged file").isEqualTo(1);

    route.content("id\n1\n2\n3\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    assertThat(count("/people.csv")).as("rows of the new version").isEqualTo(3);
    assertThat(route.fullDownloads()).isEqualTo(2);
  }

  private long count(String path) {
    return query("SELECT count(*) FROM t", path, DataFormat.CSV).await().rowValues().getJsonArray(0).getLong(0);
  }

}
