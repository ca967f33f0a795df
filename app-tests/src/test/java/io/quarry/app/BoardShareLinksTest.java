package io.quarry.app;

import static io.quarry.app.HttpAssertions.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.ApiOps;
import io.quarry.bus.ApiOps.CreateShare;
import io.quarry.bus.BoardOps;
import io.quarry.bus.BoardOps.PinTile;
import io.quarry.bus.Bus;
import io.quarry.bus.ChartData;
import io.quarry.bus.Failure;
import io.quarry.bus.QueryResult;
import io.quarry.bus.RowsJson;
import io.quarry.bus.Shares;
import io.quarry.bus.StorageClient;
import io.quarry.bus.Tile;
import io.quarry.testing.Failures;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.ext.web.client.WebClientSession;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A board's share link end to end on a real node (password mode, real SQLite; issue 52, item 2): made from
 * {@code {board_id}} (kind board), read without a session as the board is now (its tiles' stored copies, SQL, files with
 * redacted URLs, when each ran; no user id, e-mail, conversation id or secret), its tiles' stored rows downloaded and
 * nothing else; revoked, or its board deleted, it is the one 404; another user's board is 404 and makes nothing.
 */
class BoardShareLinksTest {

  static final String SECRET = "SIGboard0123456789abcdef";
  static final String NOT_FOUND = Shares.NOT_FOUND;

  @TempDir
  static Path dir;

  static Node node;
  static StorageClient storage;

  @BeforeAll
  static void start() {
    Map<String, String> env = TestNodes.env(dir);
    env.put("QUARRY_AUTH_MODE", "password");
    env.put("QUARRY_LOCAL_WORKERS", "0");
    env.put("QUARRY_SHARE_AUDIENCE", "anyone");
    node = TestNodes.start(env, dir);
    storage = new StorageClient(node.vertx());
  }

  @AfterAll
  static void stop() {
    node.stop().await();
  }

  private static WebClient client() {
    return WebClient.create(node.vertx(), new WebClientOptions().setDefaultHost("127.0.0.1")
        .setDefaultPort(node.httpPort()));
  }

  private static WebClientSession signedUp() {
    WebClientSession session = WebClientSession.create(client());
    String invite = storage.createInvite().await();
    assertThat(session.post("/api/auth/signup").sendJsonObject(new JsonObject()
        .put("email", "ada-" + UUID.randomUUID() + "@example.com").put("password", "long enough")
        .put("invite", invite)).await().statusCode()).isEqualTo(201);
    return session;
  }

  private static HttpResponse<Buffer> send(WebClient client, HttpMethod method, String path, JsonObject body) {
    return TestNodes.send(client, method, path, body);
  }

  private static JsonObject ok(HttpResponse<Buffer> response, int status) {
    assertThat(response.statusCode()).as(response.bodyAsString()).isEqualTo(status);
    return response.statusCode() == 204 ? null : response.bodyAsJsonObject();
  }

  /** A board of the user's, "Fleet": a table tile (pinned over REST) and a chart tile of one stored result. */
  record Seeded(String userId, String conversation, String result, String board, String table, String chart) {
  }

  private static Seeded seed(WebClientSession session) {
    String userId = send(session, HttpMethod.GET, "/api/me", null).bodyAsJsonObject().getString("id");
    String conversation = ok(send(session, HttpMethod.POST, "/api/conversations", new JsonObject()
        .put("title", "Cars")), 201).getString("id");
    String url = "https://bucket.example.com/cars.parquet?X-Amz-Signature=" + SECRET + "&X-Amz-Expires=3600";
    JsonArray columns = new JsonArray().add(new JsonObject().put("name", "origin").put("type", "VARCHAR"))
        .add(new JsonObject().put("name", "n").put("type", "BIGINT"));
    JsonArray rows = new JsonArray().add(new JsonArray().add("US").add(249)).add(new JsonArray().add("Japan, \"JP\"")
        .add(79));
    JsonArray sources = new JsonArray().add(new JsonObject().put("table", "table1").put("url", url)
        .put("etag", "\"v1\"").put("size", 1234));
    QueryResult result = storage.saveResult(userId, new QueryResult(null, conversation,
        "SELECT origin, count(*) AS n FROM table1 GROUP BY 1", columns, RowsJson.of(rows), 2, false, 5, null, null,
        sources)).await();
    String board = ok(send(session, HttpMethod.POST, "/api/boards", new JsonObject().put("title", "Fleet")), 201)
        .getString("id");
    String table = ok(send(session, HttpMethod.POST, "/api/boards/" + board + "/tiles", new JsonObject()
        .put("result_id", result.id()).put("title", "Cars by origin")), 201).getString("id");
    // What a chart tile draws, as the dataset service would have computed it (this node runs no worker).
    JsonObject drawn = new ChartData(new JsonObject().put("chart_type", "bar").put("x", "origin")
        .put("y", new JsonArray().add("n")), columns, rows, "all 2 rows").toJson();
    Tile chart = BoardOps.STORE_PIN.call(new Bus(node.vertx()), new PinTile(userId, board, null, result.id(),
        Tile.CHART, drawn, "Cars chart")).await();
    return new Seeded(userId, conversation, result.id(), board, table, chart.id());
  }

  private static JsonObject shareBoard(WebClientSession session, String board) {
    return ok(send(session, HttpMethod.POST, "/api/shares", new JsonObject().put("board_id", board)
        .put("audience", "anyone").put("display_name", "Ada L.")), 201);
  }

  @Test
  @DisplayName("a board's link is made from board_id (kind board) and opens without a session: the board as it is now,"
      + " each tile's title, rows or chart, SQL, files and when it ran; no user id, e-mail, conversation id, board id"
      + " or signed URL's secret")
  void anonymousBoard() throws Exception {
    WebClientSession ada = signedUp();
    Seeded s = seed(ada);
    JsonObject share = shareBoard(ada, s.board());
    assertThat(share.getString("kind")).isEqualTo("board");
    assertThat(share.getString("board_id")).isEqualTo(s.board());
    assertThat(share.getString("conversation_id")).isNull();
    assertThat(share.getString("title")).isEqualTo("Fleet");
    assertThat(TestNodes.sqlite(dir, "SELECT COUNT(*) FROM shares WHERE kind = 'board' AND board_id = '" + s.board()
        + "' AND conversation_id IS NULL")).isEqualTo(1);
    // As it is when opened: a board renamed after it was shared is shown by its new title.
    ok(send(ada, HttpMethod.PATCH, "/api/boards/" + s.board(), new JsonObject().put("title", "Fleet now")), 200);

    HttpResponse<Buffer> got = client().get("/api/s/" + share.getString("token")).send().await();
    assertThat(got.statusCode()).as(got.bodyAsString()).isEqualTo(200);
    assertThat(got.getHeader("Referrer-Policy")).isEqualTo("no-referrer");
    assertThat(got.bodyAsString()).doesNotContain(s.userId()).doesNotContain("@example.com").doesNotContain(SECRET)
        .doesNotContain(s.conversation()).doesNotContain(s.board()).doesNotContain(s.result()).contains("[redacted]");
    JsonObject view = got.bodyAsJsonObject();
    assertThat(view.getString("kind")).isEqualTo("board");
    assertThat(view.getString("title")).isEqualTo("Fleet now");
    assertThat(view.getString("display_name")).isEqualTo("Ada L.");
    JsonArray tiles = view.getJsonArray("tiles");
    assertThat(tiles).extracting(t -> ((JsonObject) t).getString("title")).containsExactly("Cars by origin",
        "Cars chart");
    JsonObject table = tiles.getJsonObject(0);
    assertThat(table.getString("kind")).isEqualTo("table");
    assertThat(table.getJsonArray("rows").getJsonArray(0).getValue(0)).isEqualTo("US");
    assertThat(table.getString("sql")).isEqualTo("SELECT origin, count(*) AS n FROM table1 GROUP BY 1");
    assertThat(table.getString("ran_at")).isNotBlank();
    assertThat(table.getJsonArray("sources").getJsonObject(0).getString("etag")).isEqualTo("\"v1\"");
    assertThat(tiles.getJsonObject(1).getJsonObject("chart").getJsonObject("spec").getString("chart_type"))
        .isEqualTo("bar");
  }

  @Test
  @DisplayName("a board's link downloads its own tiles' stored rows, CSV or JSON; another board's tile, a result, an"
      + " unknown format, a conversation's link's tile path, and after revoking anything at all: 404 (400 for the"
      + " format)")
  void tileDownloadsAndRevoke() {
    WebClientSession ada = signedUp();
    Seeded s = seed(ada);
    Seeded other = seed(ada);
    String token = shareBoard(ada, s.board()).getString("token");
    WebClient anonymous = client();
    String base = "/api/s/" + token + "/tiles/";

    HttpResponse<Buffer> csv = anonymous.get(base + s.table() + "?format=csv").send().await();
    assertThat(csv.statusCode()).as(csv.bodyAsString()).isEqualTo(200);
    assertThat(csv.bodyAsString()).isEqualTo("origin,n\r\nUS,249\r\n\"Japan, \"\"JP\"\"\",79\r\n");
    assertThat(csv.getHeader("Content-Disposition")).startsWith("attachment");
    JsonArray json = anonymous.get(base + s.chart() + "?format=json").send().await().bodyAsJsonArray();
    assertThat(json.getJsonObject(0).getMap()).containsEntry("origin", "US").containsEntry("n", 249);
    assertError(anonymous.get(base + other.table()).send().await(), 404, NOT_FOUND);
    assertError(anonymous.get("/api/s/" + token + "/results/" + s.result()).send().await(), 404, NOT_FOUND);
    assertThat(anonymous.get(base + s.table() + "?format=xls").send().await().statusCode()).isEqualTo(400);
    String conversationToken = ok(send(ada, HttpMethod.POST, "/api/shares", new JsonObject()
        .put("conversation_id", s.conversation()).put("audience", "anyone")), 201).getString("token");
    assertError(anonymous.get("/api/s/" + conversationToken + "/tiles/" + s.table()).send().await(), 404, NOT_FOUND);

    String id = send(ada, HttpMethod.GET, "/api/shares", null).bodyAsJsonObject().getJsonArray("shares")
        .stream().map(JsonObject.class::cast).filter(x -> "board".equals(x.getString("kind"))).findFirst()
        .orElseThrow().getString("id");
    assertThat(send(ada, HttpMethod.DELETE, "/api/shares/" + id, null).statusCode()).isEqualTo(204);
    for (String path : new String[] {"/api/s/" + token, base + s.table()}) {
      assertError(anonymous.get(path).send().await(), 404, NOT_FOUND);
    }
  }

  @Test
  @DisplayName("another user's board: 404 over REST and the bus, and no share is made; both a conversation and a"
      + " board is 400; deleting a board deletes its links, which are then the same 404")
  void isolationAndDelete() throws Exception {
    WebClientSession ada = signedUp();
    WebClientSession bob = signedUp();
    Seeded s = seed(ada);
    String bobId = send(bob, HttpMethod.GET, "/api/me", null).bodyAsJsonObject().getString("id");
    long before = TestNodes.sqlite(dir, "SELECT COUNT(*) FROM shares");

    assertError(send(bob, HttpMethod.POST, "/api/shares", new JsonObject().put("board_id", s.board())), 404,
        BoardOps.BOARD_NOT_FOUND);
    Failures.assertFails(ApiOps.SHARE_CREATE.call(new Bus(node.vertx()), new CreateShare(bobId, null, null,
        s.board(), "anyone", null, null)), Failure.NOT_FOUND, BoardOps.BOARD_NOT_FOUND);
    assertError(send(ada, HttpMethod.POST, "/api/shares", new JsonObject().put("board_id", s.board())
        .put("conversation_id", s.conversation())), 400,
        "A link shows a conversation (conversation_id, message_id) or a board (board_id), not both");
    assertThat(TestNodes.sqlite(dir, "SELECT COUNT(*) FROM shares")).isEqualTo(before);
    assertThat(send(bob, HttpMethod.GET, "/api/shares", null).bodyAsJsonObject().getJsonArray("shares")).isEmpty();

    String token = shareBoard(ada, s.board()).getString("token");
    assertThat(client().get("/api/s/" + token).send().await().statusCode()).isEqualTo(200);
    assertThat(send(ada, HttpMethod.DELETE, "/api/boards/" + s.board(), null).statusCode()).isEqualTo(204);
    assertThat(TestNodes.sqlite(dir, "SELECT COUNT(*) FROM shares WHERE board_id = '" + s.board() + "'")).isZero();
    assertError(client().get("/api/s/" + token).send().await(), 404, NOT_FOUND);
  }
}
