package io.quarry.app;

import static io.quarry.app.HttpAssertions.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.testing.ParquetFixtures;
import io.quarry.testing.ParquetServer;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Datasets and SQL end to end: REST → dataset-verticle → storage and worker → DuckDB on loopback Parquet.
 *
 * <p>One node serves the whole class (starting one, with its worker processes, costs more than all the tests'
 * requests); each test has a conversation of its own, a Parquet server of its own (so URLs no other test has used,
 * which no worker has cached) and sees only its conversation's events and stored rows.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DatasetApiTest {

  @TempDir
  static Path nodeDir;

  /** This test's own files. */
  Path dir;

  Node node;
  WebClient client;
  ParquetServer files;
  String conversation;
  String base;
  EventRecorder events;

  @BeforeAll
  void startNode() {
    Map<String, String> env = TestNodes.env(nodeDir);
    env.put("QUARRY_ALLOW_PRIVATE_NETWORKS", "true");
    // The one local person makes every test's writes: together, past the per-user write burst, which no test here is
    // about.
    env.put("QUARRY_CHAT_WRITE_BURST", "100000");
    env.put("QUARRY_CHAT_WRITES_PER_MINUTE", "100000");
    node = TestNodes.start(env, nodeDir);
    client = WebClient.create(node.vertx(), new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(node.httpPort()));
  }

  @AfterAll
  void stopNode() {
    node.stop().await();
  }

  @BeforeEach
  void start(@TempDir Path testDir) {
    dir = testDir;
    files = ParquetServer.start(node.vertx());
    files.route("/people.parquet").content(ParquetFixtures.people(dir));
    conversation = send(HttpMethod.POST, "/api/conversations", new JsonObject()).bodyAsJsonObject().getString("id");
    base = "/api/conversations/" + conversation;
    String userId = send(HttpMethod.GET, "/api/me", null).bodyAsJsonObject().getString("id");
    events = EventRecorder.ofConversation(node, userId, conversation);
  }

  @AfterEach
  void stop() {
    events.close();
    files.close().await();
  }

  /** How many of this conversation's datasets SQLite holds that match {@code condition}. */
  private long stored(String condition) throws Exception {
    return TestNodes.sqlite(nodeDir, "SELECT COUNT(*) FROM datasets WHERE conversation_id = '" + conversation + "' AND ("
        + condition + ")");
  }

  private HttpResponse<Buffer> send(HttpMethod method, String path, Object body) {
    return TestNodes.send(client, method, path, body);
  }

  private HttpResponse<Buffer> add(String url) {
    return send(HttpMethod.POST, base + "/datasets", new JsonObject().put("url", url));
  }

  private HttpResponse<Buffer> query(String sql) {
    return send(HttpMethod.POST, base + "/query", new JsonObject().put("sql", sql));
  }


  @Test
  @DisplayName("adding a URL answers 201 with a ready dataset named table1, its schema cached; loading then loaded is published")
  void addDataset() throws Exception {
    HttpResponse<Buffer> response = add(files.url("/people.parquet"));
    assertThat(response.statusCode()).isEqualTo(201);
    JsonObject dataset = response.bodyAsJsonObject();
    assertThat(dataset.getString("name")).isEqualTo("table1");
    assertThat(dataset.getString("status")).isEqualTo("ready");
    assertThat(dataset.getLong("row_count")).isEqualTo(100);
    assertThat(dataset.getInteger("column_count")).isEqualTo(6);
    assertThat(dataset.getJsonArray("schema").getJsonObject(3).getString("friendly_type")).isEqualTo("Decimal");

    List<JsonObject> published = events.next(2);
    assertThat(published).extracting(e -> e.getString("type")).containsExactly("dataset_loading", "dataset_loaded");
    assertThat(published.get(1).getString("conversation_id")).isEqualTo(conversation);
    assertThat(published.get(1).getJsonObject("dataset").getString("id")).isEqualTo(dataset.getString("id"));

    JsonArray listed = send(HttpMethod.GET, base, null).bodyAsJsonObject().getJsonArray("datasets");
    assertThat(listed.getJsonObject(0).getJsonArray("schema")).isEqualTo(dataset.getJsonArray("schema"));
    assertThat(stored("status = 'ready' AND row_count = 100")).isEqualTo(1);
  }

  @Test
  @DisplayName("a malformed URL is refused with 'Invalid URL format' and nothing is stored")
  void invalidUrl() throws Exception {
    String longest = files.url("/people.parquet?pad=");
    longest += "x".repeat(8_192 - longest.length());
    for (String url : new String[] {"not a url", "ftp://example.com/x.parquet", "file:///etc/passwd", "https://", "",
        "   ", "gopher://127.0.0.1/x", "%%%garbage%%%", "http://127.0.0.1:0/x.parquet", "http://127.0.0.1:65536/x.parquet",
        "http://127.0.0.1:99999999999/x.parquet", longest + "x"}) {
      assertError(add(url), 400, "Invalid URL format");
    }
    assertError(send(HttpMethod.POST, base + "/datasets", new JsonObject()), 400, "Field 'url' is required");
    assertError(send(HttpMethod.POST, base + "/datasets", new JsonObject().put("url", 42)), 400,
        "Field 'url' must be a string");
    assertThat(stored("true")).isZero();
    // At the edges, step 1 passes: nothing listens on these ports, so step 2 is what fails.
    assertError(add("http://127.0.0.1:65535/x.parquet"), 400, "Could not access URL");
    assertError(add("http://127.0.0.1:1/x.parquet"), 400, "Could not access URL");
    assertThat(longest).hasSize(8_192);
    assertThat(add(longest).statusCode()).isEqualTo(201);
  }

  @Test
  @DisplayName("a failing URL answers 400 with the seed's message; the failed add keeps nothing, and adding the URL "
      + "again once it works loads it as table1")
  void failingUrl() throws Exception {
    files.route("/gone.parquet").status(404);
    HttpResponse<Buffer> response = add(files.url("/gone.parquet"));
    assertError(response, 400, "Could not access URL");
    assertThat(response.bodyAsJsonObject().getString("details")).isEqualTo("The server answered HTTP 404 Not Found");
    assertThat(events.next(2)).extracting(e -> e.getString("type")).containsExactly("dataset_loading", "dataset_error");
    assertThat(send(HttpMethod.GET, base, null).bodyAsJsonObject().getJsonArray("datasets")).isEmpty();

    files.route("/gone.parquet").status(0).content(ParquetFixtures.people(dir));
    HttpResponse<Buffer> retried = add(files.url("/gone.parquet"));
    assertThat(retried.statusCode()).isEqualTo(201);
    assertThat(retried.bodyAsJsonObject().getString("status")).isEqualTo("ready");
    assertThat(retried.bodyAsJsonObject().getString("name")).isEqualTo("table1");
  }

  @Test
  @DisplayName("the same URL twice is refused with 'This dataset is already loaded'")
  void duplicate() {
    assertThat(add(files.url("/people.parquet")).statusCode()).isEqualTo(201);
    assertError(add(files.url("/people.parquet")), 400, "This dataset is already loaded");
  }

  @Test
  @DisplayName("five datasets are accepted, the sixth refused with 'Maximum 5 datasets reached'; removing one frees a slot")
  void limit() {
    String lastId = null;
    for (int i = 1; i <= 5; i++) {
      HttpResponse<Buffer> added = add(files.url("/people.parquet") + "?copy=" + i);
      assertThat(added.statusCode()).isEqualTo(201);
      assertThat(added.bodyAsJsonObject().getString("name")).isEqualTo("table" + i);
      lastId = added.bodyAsJsonObject().getString("id");
    }
    assertError(add(files.url("/people.parquet") + "?copy=6"), 400, "Maximum 5 datasets reached");
    assertThat(send(HttpMethod.DELETE, base + "/datasets/" + lastId, null).statusCode()).isEqualTo(204);
    assertThat(add(files.url("/people.parquet") + "?copy=6").statusCode()).isEqualTo(201);
  }

  @Test
  @DisplayName("SQL runs over the conversation's datasets; the stored result comes back by id")
  void queryAndResult() {
    add(files.url("/people.parquet"));
    HttpResponse<Buffer> response = query("SELECT active, count(*) AS n FROM table1 GROUP BY active ORDER BY active");
    assertThat(response.statusCode()).isEqualTo(200);
    JsonObject result = response.bodyAsJsonObject();
    assertThat(result.getJsonArray("rows")).isEqualTo(new JsonArray()
        .add(new JsonArray().add(false).add(50)).add(new JsonArray().add(true).add(50)));
    assertThat(result.getLong("total_rows")).isEqualTo(2);
    assertThat(result.getString("sql")).startsWith("SELECT active");

    JsonObject stored = send(HttpMethod.GET, "/api/results/" + result.getString("id"), null).bodyAsJsonObject();
    assertThat(stored.getJsonArray("rows")).isEqualTo(result.getJsonArray("rows"));
    assertThat(stored.getJsonArray("columns")).isEqualTo(result.getJsonArray("columns"));
    assertError(send(HttpMethod.GET, "/api/results/nope", null), 404, "Result not found");
  }

  @Test
  @DisplayName("a SQL error is a 400 with error_type sql naming the missing column; not a read query is refused")
  void queryErrors() {
    add(files.url("/people.parquet"));
    HttpResponse<Buffer> missing = query("SELECT salary FROM table1");
    assertThat(missing.statusCode()).isEqualTo(400);
    assertThat(missing.bodyAsJsonObject().getString("error_type")).isEqualTo("sql");
    assertThat(missing.bodyAsJsonObject().getString("error"))
        .startsWith("Column 'salary' does not exist. Available columns: table1(id, name, age, score, joined, active)");
    HttpResponse<Buffer> write = query("DROP VIEW table1");
    assertThat(write.statusCode()).isEqualTo(400);
    assertThat(write.bodyAsJsonObject().getString("error_type")).isEqualTo("validation");
    assertError(send(HttpMethod.POST, base + "/query", new JsonObject()), 400, "Field 'sql' is required");
  }

  @Test
  @DisplayName("SQL of exactly 100,000 characters runs; one more is refused naming the field")
  void sqlLength() {
    String select = "SELECT 1 AS one --";
    String atLimit = select + "x".repeat(100_000 - select.length());
    assertThat(query(atLimit).statusCode()).isEqualTo(200);
    assertError(query(atLimit + "x"), 400, "Field 'sql' must be at most 100,000 characters");
  }

  @Test
  @DisplayName("a renamed dataset is queried by its new name; the old name then does not exist")
  void rename() {
    String id = add(files.url("/people.parquet")).bodyAsJsonObject().getString("id");
    HttpResponse<Buffer> renamed = send(HttpMethod.PATCH, base + "/datasets/" + id, new JsonObject().put("name", "people"));
    assertThat(renamed.bodyAsJsonObject().getString("name")).isEqualTo("people");
    assertThat(query("SELECT count(*) FROM people").statusCode()).isEqualTo(200);
    assertThat(query("SELECT count(*) FROM table1").bodyAsJsonObject().getString("error"))
        .isEqualTo("Table 'table1' does not exist. Available tables: people");
    assertError(send(HttpMethod.PATCH, base + "/datasets/" + id, new JsonObject().put("name", "bad name")), 400,
        "Name must be a valid SQL identifier: letters, digits and underscores, not starting with a digit, at most 63 characters");
    String other = add(files.url("/people.parquet") + "?2").bodyAsJsonObject().getString("id");
    assertError(send(HttpMethod.PATCH, base + "/datasets/" + other, new JsonObject().put("name", "People")), 409,
        "A dataset named 'People' already exists in this conversation");
  }

  @Test
  @DisplayName("a query right after the datasets change sees the change, though queries do not wait for the table look-up")
  void queriesFollowChanges() {
    String id = add(files.url("/people.parquet")).bodyAsJsonObject().getString("id");
    assertThat(rows(query("SELECT count(*) FROM table1"))).isEqualTo(new JsonArray().add(new JsonArray().add(100)));

    send(HttpMethod.PATCH, base + "/datasets/" + id, new JsonObject().put("name", "people"));
    assertThat(rows(query("SELECT count(*) FROM people"))).isEqualTo(new JsonArray().add(new JsonArray().add(100)));
    assertThat(query("SELECT count(*) FROM table1").bodyAsJsonObject().getString("error"))
        .isEqualTo("Table 'table1' does not exist. Available tables: people");

    add(files.url("/people.parquet") + "?again"); // named table1 again: the name is free since the rename
    assertThat(rows(query("SELECT count(*) FROM people JOIN table1 USING (id)")))
        .isEqualTo(new JsonArray().add(new JsonArray().add(100)));

    assertThat(send(HttpMethod.DELETE, base + "/datasets/" + id, null).statusCode()).isEqualTo(204);
    HttpResponse<Buffer> gone = query("SELECT count(*) FROM people");
    assertThat(gone.statusCode()).isEqualTo(400);
    assertThat(gone.bodyAsJsonObject().getString("error")).isEqualTo("Table 'people' does not exist. Available tables: table1");
  }

  private static JsonArray rows(HttpResponse<Buffer> response) {
    assertThat(response.statusCode()).as(response.bodyAsString()).isEqualTo(200);
    return response.bodyAsJsonObject().getJsonArray("rows");
  }

  @Test
  @DisplayName("refresh re-reads the schema of a changed file; removal publishes dataset_removed and frees the name")
  void refreshAndRemove() throws Exception {
    String id = add(files.url("/people.parquet")).bodyAsJsonObject().getString("id");
    events.next(2);
    files.route("/people.parquet").content(ParquetFixtures.write(dir.resolve("v2.parquet"), "SELECT 1 AS only_column"));
    JsonObject refreshed = send(HttpMethod.POST, base + "/datasets/" + id + "/refresh", null).bodyAsJsonObject();
    assertThat(refreshed.getLong("row_count")).isEqualTo(1);
    assertThat(refreshed.getInteger("column_count")).isEqualTo(1);
    assertThat(events.next(2)).extracting(e -> e.getString("type")).containsExactly("dataset_loading", "dataset_loaded");

    assertThat(send(HttpMethod.DELETE, base + "/datasets/" + id, null).statusCode()).isEqualTo(204);
    assertThat(events.next(1).get(0).getString("type")).isEqualTo("dataset_removed");
    assertThat(send(HttpMethod.GET, base, null).bodyAsJsonObject().getJsonArray("datasets")).isEmpty();
    assertError(send(HttpMethod.DELETE, base + "/datasets/" + id, null), 404, "Dataset not found");
  }

  @Test
  @DisplayName("a URL that fails during a query gives a network error and puts the dataset in error state")
  void unreachableDuringQuery() throws Exception {
    add(files.url("/people.parquet"));
    events.next(2);
    files.route("/people.parquet").status(500);
    HttpResponse<Buffer> response = query("SELECT count(*) FROM table1");
    assertThat(response.statusCode()).isEqualTo(502);
    assertThat(response.bodyAsJsonObject().getString("error_type")).isEqualTo("network");
    assertThat(response.bodyAsJsonObject().getString("error"))
        .isEqualTo("The dataset at " + files.url("/people.parquet") + " is no longer accessible");
    assertThat(events.next(1).get(0).getString("type")).isEqualTo("dataset_error");
    assertThat(stored("status = 'error'")).isEqualTo(1);
  }

  @Test
  @DisplayName("only the dataset whose URL failed goes to error, even when a healthy URL is a prefix of it")
  void onlyTheFailedDataset() throws Exception {
    files.route("/people.parquet2").content(ParquetFixtures.people(dir));
    add(files.url("/people.parquet"));
    add(files.url("/people.parquet2"));
    events.next(4);
    files.route("/people.parquet2").status(500);
    assertThat(query("SELECT count(*) FROM table1, table2").statusCode()).isEqualTo(502);
    assertThat(events.next(1).get(0).getJsonObject("dataset").getString("name")).isEqualTo("table2");
    assertThat(stored("status = 'error' AND name = 'table2'")).isEqualTo(1);
    assertThat(stored("status = 'ready' AND name = 'table1'")).isEqualTo(1);
  }

  @Test
  @DisplayName("a conversation's SQL cannot see another conversation's datasets; unknown conversations are 404")
  void isolationBetweenConversations() {
    add(files.url("/people.parquet"));
    String other = send(HttpMethod.POST, "/api/conversations", new JsonObject()).bodyAsJsonObject().getString("id");
    HttpResponse<Buffer> response = send(HttpMethod.POST, "/api/conversations/" + other + "/query",
        new JsonObject().put("sql", "SELECT * FROM table1"));
    assertError(response, 400, "Table 'table1' does not exist. Available tables: none (add a dataset first)");
    assertError(send(HttpMethod.POST, "/api/conversations/nope/query", new JsonObject().put("sql", "SELECT 1")), 404,
        "Conversation not found");
    assertError(send(HttpMethod.POST, "/api/conversations/nope/datasets",
        new JsonObject().put("url", files.url("/people.parquet"))), 404, "Conversation not found");
  }
}
