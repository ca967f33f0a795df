package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.testing.ParquetFixtures;
import io.quarry.testing.ParquetServer;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A whole node at the default freshness window (worker.freshForMs, 60 s) and with two worker processes, as a user
 * meets it: queries again and again over a file ask its origin once; a Refresh, or the version check on opening the
 * conversation, asks regardless, and the next query reads what they found.
 */
class FreshCopiesTest extends ChatTestBase {

  @Override
  boolean sharesNode() {
    return true;
  }

  @Override
  Map<String, String> env() {
    return Map.of("QUARRY_WORKER_FRESH_FOR_MS", "60000", "QUARRY_LOCAL_WORKERS", "2");
  }

  private long count() {
    return query("SELECT count(*) FROM table1").getJsonArray("rows").getJsonArray(0).getLong(0);
  }

  @Test
  @DisplayName("the same query again and again asks the file's origin nothing after the first; each result says when"
      + " the file was last confirmed")
  void repeatedQueries() {
    ParquetServer.Route file = chat.files.route("/fresh.parquet").content(ParquetFixtures.people(dir));
    chat.addDataset(conversation, "/fresh.parquet");
    JsonObject first = query("SELECT count(*) FROM table1");
    long asked = file.requests();
    for (int i = 0; i < 5; i++) {
      assertThat(count()).isEqualTo(100);
    }
    assertThat(file.requests()).as("requests to the origin after the first query").isEqualTo(asked);
    String confirmed = first.getJsonArray("sources").getJsonObject(0).getString("confirmed_at");
    assertThat(confirmed).isNotNull();
    assertThat(query("SELECT 1 FROM table1 LIMIT 1").getJsonArray("sources").getJsonObject(0).getString("confirmed_at"))
        .isEqualTo(confirmed);
  }

  @Test
  @DisplayName("adding a file asks its origin two things at once (its tail, its first bytes); the worker's check of it"
      + " and the first count(*) ask nothing more: they start from the tail the add read")
  void addInOneRoundTrip() {
    // Larger than worker.wholeFileBelowBytes, so that its copy is sparse; its footer fits in the 64 KB tail.
    ParquetServer.Route file = chat.files.route("/far.parquet").content(ParquetFixtures.write(dir.resolve("far.parquet"),
        "SELECT i AS id, md5(i::VARCHAR) AS h FROM range(100000) t(i)"));
    chat.addDataset(conversation, "/far.parquet");
    assertThat(file.requests()).as("requests to the origin for the add").isEqualTo(2);
    assertThat(count()).isEqualTo(100_000);
    assertThat(file.requests()).as("and for the first count(*)").isEqualTo(2);
  }

  @Test
  @DisplayName("a conversation of three files, on a node of two worker processes: each add's check starts the copy that"
      + " the conversation's queries then read, whichever file they read, so they ask the origins nothing more")
  void addsAndQueriesMeet() {
    Map<String, ParquetServer.Route> files = new java.util.LinkedHashMap<>();
    for (String name : java.util.List.of("one", "two", "three")) {
      // Larger than worker.wholeFileBelowBytes (sparse copies), footers within the 64 KB tail.
      files.put(name, chat.files.route("/" + name + ".parquet").content(ParquetFixtures.write(
          dir.resolve(name + ".parquet"), "SELECT i AS id, md5((i * " + name.length() + ")::VARCHAR) AS h"
              + " FROM range(100000) t(i)")));
      chat.addDataset(conversation, "/" + name + ".parquet");
    }
    files.forEach((name, route) -> assertThat(route.requests()).as("requests for adding " + name).isEqualTo(2));
    for (String table : java.util.List.of("table1", "table2", "table3")) {
      assertThat(query("SELECT count(*) FROM " + table).getJsonArray("rows").getJsonArray(0).getLong(0))
          .isEqualTo(100_000);
    }
    files.forEach((name, route) -> assertThat(route.requests()).as("requests for " + name + " after the queries")
        .isEqualTo(2));
  }

  @Test
  @DisplayName("a file changed on its origin: within the window queries read the copy; a Refresh finds the new version"
      + " and the next query reads it")
  void refreshFindsIt() {
    ParquetServer.Route file = chat.files.route("/changing.parquet").content(ParquetFixtures.people(dir));
    String dataset = chat.addDataset(conversation, "/changing.parquet").getString("id");
    assertThat(count()).isEqualTo(100);
    file.content(ParquetFixtures.write(dir.resolve("more.parquet"), "SELECT i AS id FROM range(250) t(i)"));
    assertThat(count()).as("within the window, unasked").isEqualTo(100);
    HttpResponse<Buffer> refreshed = chat.send(HttpMethod.POST, "/api/conversations/" + conversation + "/datasets/"
        + dataset + "/refresh", null);
    assertThat(refreshed.statusCode()).as(refreshed.bodyAsString()).isEqualTo(200);
    assertThat(count()).isEqualTo(250);
  }

  @Test
  @DisplayName("a file changed on its origin: the version check on opening the conversation finds it, and the next"
      + " query reads it")
  void versionCheckFindsIt() {
    ParquetServer.Route file = chat.files.route("/checked.parquet").content(ParquetFixtures.people(dir));
    chat.addDataset(conversation, "/checked.parquet");
    assertThat(count()).isEqualTo(100);
    file.content(ParquetFixtures.write(dir.resolve("most.parquet"), "SELECT i AS id FROM range(300) t(i)"));
    HttpResponse<Buffer> checked = chat.send(HttpMethod.POST, "/api/conversations/" + conversation
        + "/datasets/versions", null);
    assertThat(checked.bodyAsJsonObject().getLong("changed")).as(checked.bodyAsString()).isEqualTo(1);
    assertThat(count()).isEqualTo(300);
  }
}
