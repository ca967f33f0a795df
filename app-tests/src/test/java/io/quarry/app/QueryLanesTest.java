package io.quarry.app;

import static io.quarry.app.HttpAssertions.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.testing.ParquetFixtures;
import io.quarry.testing.ParquetServer;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A user's queries go through their lane end to end: REST → dataset-verticle's lanes → a worker. */
class QueryLanesTest {

  @TempDir
  Path dir;

  Node node;

  @AfterEach
  void stop() {
    node.stop().await();
  }

  @Test
  @DisplayName("with one query running and one waiting (the user's caps set to 1 and 1), a third is refused at once;"
      + " the other two are answered once the data arrives")
  void laneRefusesBeyondItsCaps() {
    Map<String, String> env = TestNodes.env(dir);
    env.put("QUARRY_ALLOW_PRIVATE_NETWORKS", "true");
    env.put("QUARRY_DATASET_MAX_QUERIES_PER_USER", "1");
    env.put("QUARRY_DATASET_MAX_WAITING_QUERIES_PER_USER", "1");
    // Adding the file opens it on a worker: fetched column by column, the queries still have its column to download.
    env.put("QUARRY_WORKER_WHOLE_FILE_BELOW_BYTES", "0");
    node = TestNodes.start(env, dir);
    WebClient client = WebClient.create(node.vertx(),
        new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(node.httpPort()));
    ParquetServer files = ParquetServer.start(node.vertx());
    // Larger than the tail the add reads (which its worker's copy starts from): the name column must be downloaded.
    ParquetServer.Route people = files.route("/people.parquet").content(ParquetFixtures.write(dir.resolve("names.parquet"),
        "SELECT i AS id, md5(i::VARCHAR) AS name FROM range(20000) t(i)"));
    String conversation = TestNodes.send(client, HttpMethod.POST, "/api/conversations", new JsonObject())
        .bodyAsJsonObject().getString("id");
    String base = "/api/conversations/" + conversation;
    assertThat(TestNodes.send(client, HttpMethod.POST, base + "/datasets",
        new JsonObject().put("url", files.url("/people.parquet"))).statusCode()).isEqualTo(201);

    ParquetServer.Held download = people.holdRangeRequests();
    List<Future<HttpResponse<Buffer>>> queries = IntStream.range(0, 3).mapToObj(i -> client.post(base + "/query")
        .sendJsonObject(new JsonObject().put("sql", "SELECT count(name) AS n FROM table1"))).toList();
    try {
      // Nothing can be answered while the download is held, except a refusal.
      Future.any(queries).timeout(30, TimeUnit.SECONDS).await();
      List<HttpResponse<Buffer>> done = queries.stream().filter(Future::isComplete).map(Future::result).toList();
      assertThat(done).hasSize(1);
      assertError(done.get(0), 429, "You have too many queries running; wait for them to finish");
    } finally {
      download.release();
    }
    List<HttpResponse<Buffer>> answered = queries.stream().map(q -> q.await()).filter(r -> r.statusCode() != 429)
        .toList();
    assertThat(answered).hasSize(2).allSatisfy(r -> assertThat(r.bodyAsJsonObject().getJsonArray("rows").getJsonArray(0)
        .getLong(0)).isEqualTo(20_000));
  }
}
