package io.quarry.app;

import static io.quarry.app.HttpAssertions.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.BoardOps;
import io.quarry.bus.BoardOps.BoardRef;
import io.quarry.bus.BoardOps.NewBoard;
import io.quarry.bus.BoardOps.PinTile;
import io.quarry.bus.BoardOps.ReorderTiles;
import io.quarry.bus.BoardOps.TileRef;
import io.quarry.bus.Bus;
import io.quarry.bus.Tile;
import io.quarry.testing.ParquetFixtures;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * {@code /api/boards} and {@code api.board.*} against a real node: a pin copies the stored result (the client sends
 * no rows), order and removal are kept, a re-run replaces a tile's copy through the conversation's query path, and
 * the staleness check asks the file's server without running any query.
 */
class BoardsTest extends ChatTestBase {

  @Override
  boolean sharesNode() {
    return true;
  }

  @Override
  Map<String, String> env() {
    // As DataChangedOnOpenBrowserTest: every check asks the file's server, so a changed file is seen at once.
    return Map.of("QUARRY_DATASET_VERSION_CHECK_INTERVAL_MS", "0");
  }

  static final String COUNT = "SELECT count(*) AS people FROM table1";
  static final String PEOPLE_120 = "SELECT i AS id, 'person ' || i AS name, 20 + i % 50 AS age,"
      + " (i * 1.25)::DECIMAL(10,2) AS score, DATE '2024-01-01' + i::INTEGER AS joined, i % 2 = 0 AS active"
      + " FROM range(1, 121) t(i)";

  String dataset;

  @BeforeEach
  void people() {
    dataset = chat.addDataset(conversation, "/people.parquet").getString("id");
  }

  private JsonObject ok(HttpResponse<Buffer> response, int status) {
    assertThat(response.statusCode()).as(response.bodyAsString()).isEqualTo(status);
    return response.statusCode() == 204 ? null : response.bodyAsJsonObject();
  }

  private String board(String title) {
    return ok(chat.send(HttpMethod.POST, "/api/boards", new JsonObject().put("title", title)), 201).getString("id");
  }

  private JsonObject pin(String board, String resultId, String title) {
    return ok(chat.send(HttpMethod.POST, "/api/boards/" + board + "/tiles", new JsonObject().put("result_id", resultId)
        .put("kind", "table").put("title", title)), 201);
  }

  private JsonObject read(String board) {
    return ok(chat.send(HttpMethod.GET, "/api/boards/" + board, null), 200);
  }

  private List<String> titles(String board) {
    return read(board).getJsonArray("tiles").stream().map(t -> ((JsonObject) t).getString("title")).toList();
  }

  @Test
  @DisplayName("pinning copies the stored result's rows, columns, SQL and sources into the tile (rows in the request are"
      + " not read); a chart tile keeps what it draws; a chart without its spec, or an unknown kind, is refused")
  void pinCopiesTheStoredResult() {
    JsonObject result = query("SELECT name, age FROM table1 ORDER BY id LIMIT 3");
    String board = board("People");
    JsonObject tile = ok(chat.send(HttpMethod.POST, "/api/boards/" + board + "/tiles", new JsonObject()
        .put("result_id", result.getString("id"))
        .put("rows", new JsonArray().add(new JsonArray().add("forged").add(0)))), 201);
    assertThat(tile.getString("kind")).as("a table when no kind is named").isEqualTo("table");
    assertThat(tile.getString("title")).isEqualTo("SELECT name, age FROM table1 ORDER BY id LIMIT 3");
    JsonObject stored = read(board).getJsonArray("tiles").getJsonObject(0);
    assertThat(stored.getJsonArray("rows")).isEqualTo(result.getJsonArray("rows"));
    assertThat(stored.getJsonArray("columns")).isEqualTo(result.getJsonArray("columns"));
    assertThat(stored.getString("sql")).isEqualTo(result.getString("sql"));
    assertThat(stored.getJsonArray("sources").getJsonObject(0).getString("table")).isEqualTo("table1");
    assertThat(stored.getString("ran_at")).isEqualTo(result.getString("created_at"));

    JsonObject chart = ok(chat.send(HttpMethod.POST, "/api/boards/" + board + "/tiles", new JsonObject()
        .put("result_id", result.getString("id")).put("kind", "chart").put("title", "Ages")
        .put("chart", new JsonObject().put("chart_type", "bar").put("x", "name").put("y", new JsonArray().add("age")))),
        201);
    assertThat(chart.getJsonObject("chart").getJsonArray("rows")).hasSize(3);
    assertThat(chart.getJsonObject("chart").getString("shows")).isNotBlank();
    assertError(chat.send(HttpMethod.POST, "/api/boards/" + board + "/tiles", new JsonObject()
        .put("result_id", result.getString("id")).put("kind", "chart")), 400,
        "Field 'chart' is required for a chart: its spec, as render_chart takes it");
    assertError(chat.send(HttpMethod.POST, "/api/boards/" + board + "/tiles", new JsonObject()
        .put("result_id", result.getString("id")).put("kind", "map")), 400, "Field 'kind' must be 'chart' or 'table'");
    assertThat(read(board).getJsonObject("board").getInteger("tiles")).isEqualTo(2);
  }

  @Test
  @DisplayName("the order given is kept, one that misses a tile is refused; a removed tile is gone; a renamed board"
      + " keeps its tiles and a deleted one is not found")
  void orderRemoveRenameDelete() {
    String board = board("Three");
    String a = pin(board, query("SELECT 1 AS a").getString("id"), "A").getString("id");
    String b = pin(board, query("SELECT 2 AS b").getString("id"), "B").getString("id");
    String c = pin(board, query("SELECT 3 AS c").getString("id"), "C").getString("id");
    ok(chat.send(HttpMethod.PUT, "/api/boards/" + board + "/order", new JsonObject().put("tile_ids",
        new JsonArray().add(c).add(a).add(b))), 200);
    assertThat(titles(board)).containsExactly("C", "A", "B");
    assertError(chat.send(HttpMethod.PUT, "/api/boards/" + board + "/order", new JsonObject().put("tile_ids",
        new JsonArray().add(c).add(a))), 400, "Field 'tile_ids' must name every tile of the board once");
    ok(chat.send(HttpMethod.DELETE, "/api/boards/" + board + "/tiles/" + a, null), 204);
    assertThat(titles(board)).containsExactly("C", "B");
    assertThat(ok(chat.send(HttpMethod.PATCH, "/api/boards/" + board, new JsonObject().put("title", "Two")), 200)
        .getString("title")).isEqualTo("Two");
    assertThat(ok(chat.send(HttpMethod.GET, "/api/boards", null), 200).getJsonArray("boards").stream()
        .map(x -> ((JsonObject) x).getString("title"))).contains("Two");
    ok(chat.send(HttpMethod.DELETE, "/api/boards/" + board, null), 204);
    assertError(chat.send(HttpMethod.GET, "/api/boards/" + board, null), 404, "Board not found");
  }

  @Test
  @DisplayName("after its file changes, the staleness check says the tile is stale and runs no query (no result stored,"
      + " the tile's rows as they were); a re-run replaces the tile's rows, sources and time")
  void staleThenRerun() throws Exception {
    String board = board("Count");
    JsonObject tile = pin(board, query(COUNT).getString("id"), "People");
    String stale = "/api/boards/" + board + "/stale";
    assertThat(read(board).getJsonArray("tiles").getJsonObject(0).getBoolean("stale")).isFalse();
    assertThat(ok(chat.send(HttpMethod.GET, stale, null), 200).getJsonArray("tiles").getJsonObject(0)
        .getBoolean("stale")).isFalse();

    chat.files.route("/people.parquet").content(ParquetFixtures.write(dir.resolve("people120.parquet"),
        PEOPLE_120));
    long results = chat.sqlite("SELECT count(*) FROM query_results");
    JsonObject checked = ok(chat.send(HttpMethod.GET, stale, null), 200).getJsonArray("tiles").getJsonObject(0);
    assertThat(checked.getString("tile_id")).isEqualTo(tile.getString("id"));
    assertThat(checked.getBoolean("stale")).isTrue();
    assertThat(chat.sqlite("SELECT count(*) FROM query_results")).isEqualTo(results);
    assertThat(read(board).getJsonArray("tiles").getJsonObject(0).getJsonArray("rows"))
        .isEqualTo(new JsonArray().add(new JsonArray().add(100)));
    assertThat(read(board).getJsonArray("tiles").getJsonObject(0).getBoolean("stale"))
        .as("the board read says so too, from the version its dataset now records").isTrue();

    JsonObject ran = ok(chat.send(HttpMethod.POST, "/api/boards/" + board + "/tiles/" + tile.getString("id") + "/run",
        null), 200);
    assertThat(ran.getJsonArray("rows")).isEqualTo(new JsonArray().add(new JsonArray().add(120)));
    assertThat(ran.getString("ran_at")).isGreaterThan(tile.getString("ran_at"));
    assertThat(ran.getJsonArray("sources")).isNotEqualTo(tile.getJsonArray("sources"));
    assertThat(ok(chat.send(HttpMethod.GET, stale, null), 200).getJsonArray("tiles").getJsonObject(0)
        .getBoolean("stale")).isFalse();
    assertThat(read(board).getJsonArray("tiles").getJsonObject(0).getBoolean("stale")).isFalse();
  }

  @Test
  @DisplayName("a tile whose dataset was removed, or whose conversation was deleted, keeps its data and says why it"
      + " cannot run again; Re-run all reports each tile's outcome")
  void cannotRunAgain() {
    String board = board("Gone");
    String kept = pin(board, query(COUNT).getString("id"), "Count").getString("id");
    ok(chat.send(HttpMethod.DELETE, "/api/conversations/" + conversation + "/datasets/" + dataset, null), 204);
    assertError(chat.send(HttpMethod.POST, "/api/boards/" + board + "/tiles/" + kept + "/run", null), 409,
        "The dataset table1 was removed from this tile's conversation: the tile keeps its data but cannot run again");
    JsonObject all = ok(chat.send(HttpMethod.POST, "/api/boards/" + board + "/run", null), 200);
    assertThat(all.getJsonArray("runs").getJsonObject(0).getBoolean("ok")).isFalse();
    ok(chat.send(HttpMethod.DELETE, "/api/conversations/" + conversation, null), 204);
    assertError(chat.send(HttpMethod.POST, "/api/boards/" + board + "/tiles/" + kept + "/run", null), 409,
        "This tile's conversation was deleted: the tile keeps its data but cannot run again");
    JsonObject tile = read(board).getJsonArray("tiles").getJsonObject(0);
    assertThat(tile.getJsonArray("rows")).isEqualTo(new JsonArray().add(new JsonArray().add(100)));
    assertThat(ok(chat.send(HttpMethod.GET, "/api/boards/" + board + "/stale", null), 200).getJsonArray("tiles")
        .getJsonObject(0).getString("reason")).startsWith("This tile's conversation was deleted");
  }

  private HttpResponse<Buffer> withToken(String token, HttpMethod method, String path, JsonObject body) {
    var request = chat.client.request(method, path).putHeader("Authorization", "Bearer " + token);
    return (body == null ? request.send() : request.sendJsonObject(body)).await();
  }

  @Test
  @DisplayName("a read token lists and reads boards and asks whether they are stale; making, pinning, moving and"
      + " running need a query token (403 saying so)")
  void tokenScopes() {
    String board = board("Scoped");
    String tile = pin(board, query(COUNT).getString("id"), "Count").getString("id");
    String read = ok(chat.send(HttpMethod.POST, "/api/tokens", new JsonObject().put("scope", "read")), 201)
        .getString("token");
    String b = "/api/boards/" + board;
    assertThat(withToken(read, HttpMethod.GET, "/api/boards", null).statusCode()).isEqualTo(200);
    assertThat(withToken(read, HttpMethod.GET, b, null).statusCode()).isEqualTo(200);
    assertThat(withToken(read, HttpMethod.GET, b + "/stale", null).statusCode()).isEqualTo(200);
    Object[][] changes = {
        {HttpMethod.POST, "/api/boards", new JsonObject()},
        {HttpMethod.PATCH, b, new JsonObject().put("title", "Mine")},
        {HttpMethod.POST, b + "/tiles", new JsonObject().put("result_id", "r")},
        {HttpMethod.PUT, b + "/order", new JsonObject().put("tile_ids", new JsonArray().add(tile))},
        {HttpMethod.POST, b + "/tiles/" + tile + "/run", null},
        {HttpMethod.POST, b + "/run", null},
        {HttpMethod.DELETE, b + "/tiles/" + tile, null},
        {HttpMethod.DELETE, b, null}};
    for (Object[] change : changes) {
      assertError(withToken(read, (HttpMethod) change[0], (String) change[1], (JsonObject) change[2]), 403,
          "This token's scope is read, and this needs query");
    }
    String query = ok(chat.send(HttpMethod.POST, "/api/tokens", new JsonObject().put("scope", "query")), 201)
        .getString("token");
    assertThat(withToken(query, HttpMethod.POST, b + "/tiles/" + tile + "/run", null).statusCode()).isEqualTo(200);
    assertThat(titles(board)).containsExactly("Count");
  }

  @Test
  @DisplayName("api.board.* on the bus: create, pin (the stored rows copied), reorder, run, run all, stale and unpin,"
      + " with the REST API's answers")
  void onTheBus() {
    Bus bus = new Bus(chat.node.vertx());
    String userId = ok(chat.send(HttpMethod.GET, "/api/me", null), 200).getString("id");
    String board = BoardOps.CREATE.call(bus, new NewBoard(userId, null, null)).await().id();
    assertThat(BoardOps.LIST.call(bus, new io.quarry.bus.Scopes.UserRef(userId)).await())
        .anyMatch(b -> b.id().equals(board) && b.title().equals("New board"));
    JsonObject result = query(COUNT);
    Tile first = BoardOps.PIN.call(bus, new PinTile(userId, board, null, result.getString("id"), Tile.TABLE, null,
        "First")).await();
    Tile second = BoardOps.PIN.call(bus, new PinTile(userId, board, null, result.getString("id"), Tile.TABLE, null,
        null)).await();
    assertThat(first.rows().toJsonArray()).isEqualTo(result.getJsonArray("rows"));
    assertThat(BoardOps.REORDER.call(bus, new ReorderTiles(userId, board, List.of(second.id(), first.id()))).await()
        .tiles()).extracting(Tile::id).containsExactly(second.id(), first.id());
    assertThat(BoardOps.RUN.call(bus, new TileRef(userId, board, first.id())).await().rows().toJsonArray())
        .isEqualTo(new JsonArray().add(new JsonArray().add(100)));
    assertThat(BoardOps.RUN_ALL.call(bus, new BoardRef(userId, board)).await()).allMatch(BoardOps.TileRun::ok)
        .hasSize(2);
    assertThat(BoardOps.STALE.call(bus, new BoardRef(userId, board)).await()).noneMatch(BoardOps.Staleness::stale);
    BoardOps.UNPIN.call(bus, new TileRef(userId, board, first.id())).await();
    assertThat(BoardOps.GET.call(bus, new BoardRef(userId, board)).await().tiles()).extracting(Tile::id)
        .containsExactly(second.id());
    BoardOps.DELETE.call(bus, new BoardRef(userId, board)).await();
  }
}
