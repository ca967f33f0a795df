package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.testing.ParquetFixtures;
import io.quarry.testing.ParquetServer;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stopping an answer whose query waits for a big file's columns stops that query where it runs (a worker process)
 * and cancels the fetch only it waited for: the stop does not wait for the download.
 */
class StopFetchTest {

  @TempDir
  Path dir;

  ChatHarness chat;

  @BeforeEach
  void start() {
    chat = new ChatHarness(dir);
  }

  @AfterEach
  void stop() {
    chat.close();
  }

  @Test
  @DisplayName("stop while the answer's query downloads its columns: the stop answers, the query's fetch is cancelled"
      + " (the next query fetches those columns anew), and the next query answers")
  void stopCancelsTheFetch() {
    String conversation = chat.conversation();
    ParquetServer.Route big = chat.files.route("/big.parquet").content(ParquetFixtures.write(dir.resolve("big.parquet"),
        "SELECT range AS id, md5(range::VARCHAR) AS h FROM range(100000)"));
    chat.addDataset(conversation, "/big.parquet");
    ParquetServer.Held rest = big.holdRangesAfter(64 * 1024);
    chat.gemini.next().call("execute_sql", new JsonObject().put("query", "SELECT count(h) AS n FROM table1"))
        .usage(10, 1);
    chat.asked(conversation, "How many hashes?");
    rest.arrived().await();

    Future<HttpResponse<Buffer>> stopping = chat.client.request(HttpMethod.POST, "/api/conversations/" + conversation
        + "/stop").send();
    // Without the query's stop the answer would wait for the held download, and so would the stop.
    HttpResponse<Buffer> stopped = stopping.timeout(30, TimeUnit.SECONDS).await();
    assertThat(stopped.bodyAsJsonObject().getBoolean("stopped")).isTrue();
    long requests = big.rangeRequests();
    rest.release();
    big.holdRangesAfter(Long.MAX_VALUE).release();

    HttpResponse<Buffer> next = chat.send(HttpMethod.POST, "/api/conversations/" + conversation + "/query",
        new JsonObject().put("sql", "SELECT count(h) AS n FROM table1"));
    assertThat(next.statusCode()).as(next.bodyAsString()).isEqualTo(200);
    assertThat(next.bodyAsJsonObject().getJsonArray("rows").getJsonArray(0).getLong(0)).isEqualTo(100_000);
    assertThat(big.rangeRequests()).as("a cancelled fetch is not joined").isGreaterThan(requests);
  }
}
