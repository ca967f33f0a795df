package io.quarry.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.Addresses;
import io.quarry.bus.Deliveries;
import io.quarry.bus.Failure;
import io.quarry.bus.QueryRequest;
import io.quarry.bus.QueryResult;
import io.quarry.bus.WorkerReply;
import io.quarry.testing.Failures;
import io.quarry.testing.ParquetFixtures;
import io.quarry.testing.ParquetServer;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A table's columns as the answer ({@link QueryRequest#columnsOf}): what adding a file asks first, read from its copy's
 * footer with no database of the query's opened for it.
 */
@ExtendWith(VertxExtension.class)
class ColumnsOfTest {

  private static final String DESCRIBE = "SELECT column_name, column_type FROM (DESCRIBE t)";
  /** Types whose names DuckDB spells out in full: nested, parameterised, temporal, binary. */
  private static final List<String> TYPES = List.of("i::INTEGER", "'x'", "1.5::DECIMAL(10,2)", "{'a': i, 'b': 'y'}",
      "[i, i]", "TIMESTAMP '2026-01-01 00:00:00'", "'\\x00'::BLOB", "MAP {'k': i}");

  @TempDir
  Path dir;

  WorkerVerticle worker;

  @ParameterizedTest(name = "fetched whole below {0} bytes")
  @ValueSource(longs = {0, 1L << 30})
  @DisplayName("every column of a file 1,200 wide comes in one answer, with the names and types its view shows, and no"
      + " database is made for it, whether the copy is sparse or whole")
  void wideFileNoDatabase(long wholeFileBelowBytes, Vertx vertx) {
    ParquetServer server = ParquetServer.start(vertx);
    String select = IntStream.range(0, 1_200).mapToObj(i -> TYPES.get(i % TYPES.size()) + " AS \"c " + i + "\"")
        .collect(Collectors.joining(", "));
    server.route("/wide.parquet").content(ParquetFixtures.write(dir.resolve("wide.parquet"),
        "SELECT " + select + " FROM range(3) r(i)"));
    Map<String, String> tables = Map.of("t", server.url("/wide.parquet"));
    deploy(vertx, wholeFileBelowBytes);
    int made = worker.databasesMade();

    QueryResult columns = columnsOf(vertx, tables).await();

    assertThat(worker.databasesMade()).as("databases made for the columns").isEqualTo(made);
    assertThat(columns.columns().stream().map(c -> ((JsonObject) c).getString("name")))
        .containsExactlyElementsOf(QueryRequest.COLUMNS_OF_COLUMNS);
    assertThat(columns.rowValues()).hasSize(1_200);
    JsonArray viewed = new JsonArray();
    viewed.addAll(query(vertx, DESCRIBE + " LIMIT 1000", tables).rowValues());
    viewed.addAll(query(vertx, DESCRIBE + " OFFSET 1000", tables).rowValues());
    assertThat(columns.rowValues()).as("as DESCRIBE over the table's view").isEqualTo(viewed);
    assertThat(columns.rowValues().getJsonArray(3)).containsExactly("c 3", "STRUCT(a BIGINT, b VARCHAR)");
  }

  @Test
  @DisplayName("a file DuckDB cannot open fails as a query reading it fails, in the same words, naming its URL and no"
      + " local path; a table the request does not bind is refused")
  void unreadableAsAQuery(Vertx vertx) {
    ParquetServer server = ParquetServer.start(vertx);
    byte[] people = ParquetFixtures.people(dir);
    byte[] broken = people.clone();
    int footer = (int) (people.length - ParquetFixtures.footerLength(people));
    for (int i = footer + 4; i < people.length - 8; i++) {
      broken[i] = (byte) 0xEE;
    }
    server.route("/broken.parquet").content(broken);
    Map<String, String> tables = Map.of("t", server.url("/broken.parquet"));
    deploy(vertx, 1L << 30);

    ReplyException columns = (ReplyException) Failures.failure(columnsOf(vertx, tables));
    ReplyException counted = (ReplyException) Failures.failure(run(vertx, new QueryRequest("SELECT count(*) FROM t",
        tables, 10_000)));

    assertThat(columns.failureCode()).isEqualTo(Failure.BAD_REQUEST.code());
    assertThat(columns.getMessage()).isEqualTo(counted.getMessage())
        .startsWith("The query engine cannot read table t (" + tables.get("t") + "): ")
        .doesNotContain(dir.toString());
    assertThat(Failures.failure(run(vertx, request(tables, "other"))).getMessage()).isEqualTo("No table other to read the columns of");
  }

  private void deploy(Vertx vertx, long wholeFileBelowBytes) {
    worker = new WorkerVerticle();
    vertx.deployVerticle(worker, new DeploymentOptions().setConfig(new JsonObject()
        .put("dataDir", dir.resolve("data").toString()).put("allowPrivateNetworks", true).put("instances", 1)
        .put("freshForMs", 0).put("wholeFileBelowBytes", wholeFileBelowBytes).put("localWorkerId", "columns")))
        .await();
  }

  private static QueryRequest request(Map<String, String> tables, String columnsOf) {
    return new QueryRequest(DESCRIBE, tables, 10_000, "", "", "", null, List.of(), List.of(), Map.of(), "",
        columnsOf);
  }

  private static Future<QueryResult> columnsOf(Vertx vertx, Map<String, String> tables) {
    return run(vertx, request(tables, "t"));
  }

  private static QueryResult query(Vertx vertx, String sql, Map<String, String> tables) {
    return run(vertx, new QueryRequest(sql, tables, 10_000)).await();
  }

  private static Future<QueryResult> run(Vertx vertx, QueryRequest request) {
    return vertx.eventBus().<Buffer>request(Addresses.localWorker("columns"), request.toJson(),
        Deliveries.within(20_000)).map(reply -> WorkerReply.decode(reply.body()));
  }
}
