package io.quarry.app;

import static io.quarry.app.HttpAssertions.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.ApiOps;
import io.quarry.bus.BoardOps;
import io.quarry.bus.BoardOps.BoardRef;
import io.quarry.bus.BoardOps.TileRef;
import io.quarry.bus.Bus;
import io.quarry.bus.DatasetClient;
import io.quarry.bus.ScheduleOps;
import io.quarry.bus.ScheduleOps.CreateSchedule;
import io.quarry.bus.ScheduleOps.ScheduleRef;
import io.quarry.bus.Scopes.UserRef;
import io.quarry.bus.Failure;
import io.quarry.bus.LlmClient;
import io.quarry.bus.QueryTimeouts;
import io.quarry.bus.Scopes.UserRef;
import io.quarry.bus.Shares;
import io.quarry.bus.Tile;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.ext.web.client.WebClientSession;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** User B, with user A's ids, over every endpoint and bus operation: 404, and nothing changes. */
class IsolationTest {

  @TempDir
  Path dir;

  ChatHarness chat;
  WebClientSession alice;
  WebClientSession bob;
  String aliceId;
  String bobId;
  String conversation;
  String dataset;
  String result;
  /** Alice's answer. */
  String answer;
  /** Alice's board, and its one tile (her result, pinned). */
  String board;
  String tile;
  /** Alice's schedule of her result, and when it next runs. */
  String schedule;
  String nextRunAt;

  @BeforeEach
  void start() throws Exception {
    // One worker process runs the one query: a node with one starts in about half the time of the default two.
    chat = new ChatHarness(dir, Map.of("QUARRY_AUTH_MODE", "password", "QUARRY_LOCAL_WORKERS", "1",
        "QUARRY_CHAT_FOLLOW_UPS", "model"));
    alice = signUp("alice@example.com");
    bob = signUp("bob@example.com");
    aliceId = send(alice, HttpMethod.GET, "/api/me", null).bodyAsJsonObject().getString("id");
    bobId = send(bob, HttpMethod.GET, "/api/me", null).bodyAsJsonObject().getString("id");
    conversation = send(alice, HttpMethod.POST, "/api/conversations", new JsonObject().put("title", "Alice's")).bodyAsJsonObject()
        .getString("id");
    dataset = send(alice, HttpMethod.POST, "/api/conversations/" + conversation + "/datasets",
        new JsonObject().put("url", chat.files.url("/people.parquet"))).bodyAsJsonObject().getString("id");
    try (EventRecorder events = new EventRecorder(chat.node, aliceId)) {
      chat.gemini.next().call("execute_sql", new JsonObject().put("query", "SELECT count(*) AS n FROM table1")).usage(10, 1);
      chat.gemini.next().answer("100.");
      send(alice, HttpMethod.POST, "/api/conversations/" + conversation + "/messages", new JsonObject().put("content", "How many?"));
      while (!"chat_complete".equals(events.next(1).get(0).getString("type"))) {
        // Drains the turn's events up to its end.
      }
    }
    JsonObject answered = send(alice, HttpMethod.GET, "/api/conversations/" + conversation, null).bodyAsJsonObject()
        .getJsonArray("messages").getJsonObject(1);
    result = answered.getJsonArray("result_ids").getString(0);
    answer = answered.getString("id");
    board = send(alice, HttpMethod.POST, "/api/boards", new JsonObject().put("title", "Alice board")).bodyAsJsonObject()
        .getString("id");
    tile = send(alice, HttpMethod.POST, "/api/boards/" + board + "/tiles", new JsonObject().put("result_id", result)
        .put("kind", "table")).bodyAsJsonObject().getString("id");
    JsonObject scheduled = send(alice, HttpMethod.POST, "/api/schedules", new JsonObject().put("result_id", result)
        .put("every", "daily")).bodyAsJsonObject();
    schedule = scheduled.getString("id");
    nextRunAt = scheduled.getString("next_run_at");
  }

  @AfterEach
  void stop() {
    chat.close();
  }

  private WebClientSession signUp(String email) {
    String invite = InviteCommand.run(TestNodes.env(dir), "invite", "create", "--config",
        dir.resolve("absent-config.json").toString()).await();
    WebClientSession session = WebClientSession.create(WebClient.create(chat.node.vertx(),
        new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(chat.node.httpPort())));
    assertThat(send(session, HttpMethod.POST, "/api/auth/signup", new JsonObject().put("email", email)
        .put("password", "long enough").put("invite", invite)).statusCode()).isEqualTo(201);
    return session;
  }

  private static HttpResponse<Buffer> send(WebClient client, HttpMethod method, String path, JsonObject body) {
    var request = client.request(method, path);
    return (body == null ? request.send() : request.sendJsonObject(body)).await();
  }

  private static Failure failure(Future<?> future) {
    try {
      future.await();
    } catch (Exception e) {
      return Failure.classify(e);
    }
    return null;
  }

  @Test
  @DisplayName("every endpoint answers 404 to another user's ids and changes nothing")
  void restMatrix() throws Exception {
    String c = "/api/conversations/" + conversation;
    String d = c + "/datasets/" + dataset;
    String share = send(alice, HttpMethod.POST, "/api/shares", new JsonObject().put("conversation_id", conversation))
        .bodyAsJsonObject().getString("id");
    Object[][] calls = {
        {HttpMethod.POST, "/api/shares", new JsonObject().put("conversation_id", conversation)},
        {HttpMethod.POST, "/api/shares", new JsonObject().put("conversation_id", conversation).put("message_id", answer)},
        {HttpMethod.POST, "/api/shares", new JsonObject().put("board_id", board)},
        {HttpMethod.DELETE, "/api/shares/" + share, null},
        {HttpMethod.GET, c, null},
        {HttpMethod.PATCH, c, new JsonObject().put("title", "Bob's now")},
        {HttpMethod.DELETE, c, null},
        {HttpMethod.POST, c + "/messages", new JsonObject().put("content", "Leak it")},
        {HttpMethod.POST, c + "/datasets", new JsonObject().put("url", chat.files.url("/people.parquet") + "?b")},
        {HttpMethod.PATCH, d, new JsonObject().put("name", "stolen")},
        {HttpMethod.DELETE, d, null},
        {HttpMethod.POST, d + "/refresh", null},
        {HttpMethod.GET, d + "/profile", null},
        {HttpMethod.POST, c + "/datasets/upload?name=stolen.csv", new JsonObject()},
        {HttpMethod.POST, c + "/query", new JsonObject().put("sql", "SELECT * FROM table1")},
        {HttpMethod.POST, c + "/messages/" + answer + "/continue", null},
        {HttpMethod.POST, c + "/messages/" + answer + "/follow-ups", null},
        {HttpMethod.POST, c + "/stop", null},
        {HttpMethod.POST, "/api/conversations/" + UUID.randomUUID() + "/stop", null},
        {HttpMethod.GET, "/api/results/" + result, null},
        {HttpMethod.GET, "/api/boards/" + board, null},
        {HttpMethod.PATCH, "/api/boards/" + board, new JsonObject().put("title", "Bob's now")},
        {HttpMethod.POST, "/api/boards/" + board + "/tiles", new JsonObject().put("result_id", result).put("kind", "table")},
        {HttpMethod.PUT, "/api/boards/" + board + "/order", new JsonObject().put("tile_ids", new JsonArray().add(tile))},
        {HttpMethod.POST, "/api/boards/" + board + "/run", null},
        {HttpMethod.GET, "/api/boards/" + board + "/stale", null},
        {HttpMethod.POST, "/api/boards/" + board + "/tiles/" + tile + "/run", null},
        {HttpMethod.DELETE, "/api/boards/" + board + "/tiles/" + tile, null},
        {HttpMethod.DELETE, "/api/boards/" + board, null},
        {HttpMethod.POST, "/api/schedules", new JsonObject().put("result_id", result).put("every", "daily")},
        {HttpMethod.POST, "/api/schedules", new JsonObject().put("tile_id", tile).put("every", "daily")},
        {HttpMethod.PATCH, "/api/schedules/" + schedule, new JsonObject().put("paused", true)},
        {HttpMethod.DELETE, "/api/schedules/" + schedule, null},
        {HttpMethod.GET, "/api/schedules/" + schedule + "/runs", null},
        {HttpMethod.POST, "/api/schedules/" + schedule + "/run", null}};
    for (Object[] call : calls) {
      HttpResponse<Buffer> response = send(bob, (HttpMethod) call[0], (String) call[1], (JsonObject) call[2]);
      assertThat(response.statusCode()).as(call[0] + " " + call[1]).isEqualTo(404);
      assertThat(response.bodyAsJsonObject().fieldNames()).as(call[0] + " " + call[1]).isSubsetOf("error", "details");
    }
    assertThat(send(bob, HttpMethod.GET, "/api/conversations", null).bodyAsJsonObject().getJsonArray("conversations")).isEmpty();
    assertThat(send(bob, HttpMethod.GET, "/api/shares", null).bodyAsJsonObject().getJsonArray("shares")).isEmpty();
    assertThat(chat.sqlite("SELECT COUNT(*) FROM shares")).isEqualTo(1);
    assertThat(chat.sqlite("SELECT COUNT(*) FROM shares WHERE revoked_at IS NULL AND user_id = '" + aliceId + "'"))
        .isEqualTo(1);
    assertThat(send(bob, HttpMethod.GET, "/api/boards", null).bodyAsJsonObject().getJsonArray("boards")).isEmpty();
    // Alice's result pinned to a board of Bob's own: not found, as the result is not his.
    String bobs = send(bob, HttpMethod.POST, "/api/boards", new JsonObject()).bodyAsJsonObject().getString("id");
    assertError(send(bob, HttpMethod.POST, "/api/boards/" + bobs + "/tiles", new JsonObject().put("result_id", result)
        .put("kind", "table")), 404, "Result not found");
    assertThat(send(bob, HttpMethod.GET, "/api/schedules", null).bodyAsJsonObject().getJsonArray("schedules")).isEmpty();
    assertUnchanged();
  }

  @Test
  @DisplayName("while Alice's answer streams, Bob asking in her conversation gets 404, not 409 (which would tell it exists)")
  void busyIsTheOwnersToKnow() throws Exception {
    String c = "/api/conversations/" + conversation;
    chat.gemini.next().text("Thinking").gate("held").answer(" done.");
    try (EventRecorder events = new EventRecorder(chat.node, aliceId)) {
      assertThat(send(alice, HttpMethod.POST, c + "/messages", new JsonObject().put("content", "Again?")).statusCode())
          .isEqualTo(202);
      while (!"chat_token".equals(events.next(1).get(0).getString("type"))) {
        // Waits until the answer is streaming.
      }
      assertError(send(bob, HttpMethod.POST, c + "/messages", new JsonObject().put("content", "Mine?")), 404,
          "Conversation not found");
      assertError(send(alice, HttpMethod.POST, c + "/messages", new JsonObject().put("content", "And?")), 409,
          "Generation already in progress for this conversation");
      chat.gemini.release("held");
      while (!"chat_complete".equals(events.next(1).get(0).getString("type"))) {
        // Drains the turn's events up to its end.
      }
    }
  }

  @Test
  @DisplayName("every bus operation with another user's id fails NOT_FOUND and changes nothing")
  void busMatrix() throws Exception {
    DatasetClient datasets = new DatasetClient(chat.node.vertx(), new QueryTimeouts(60_000));
    LlmClient llm = new LlmClient(chat.node.vertx());
    Bus bus = new Bus(chat.node.vertx());
    String share = send(alice, HttpMethod.POST, "/api/shares", new JsonObject().put("conversation_id", conversation))
        .bodyAsJsonObject().getString("id");
    assertThat(failure(ApiOps.SHARE_CREATE.call(bus, new ApiOps.CreateShare(bobId, conversation, null, null, null,
        null, null)))).isEqualTo(Failure.NOT_FOUND);
    assertThat(failure(ApiOps.SHARE_CREATE.call(bus, new ApiOps.CreateShare(bobId, conversation, answer, null, null,
        null, null)))).isEqualTo(Failure.NOT_FOUND);
    assertThat(failure(ApiOps.SHARE_CREATE.call(bus, new ApiOps.CreateShare(bobId, null, null, board, null, null,
        null)))).isEqualTo(Failure.NOT_FOUND);
    assertThat(failure(ApiOps.SHARE_REVOKE.call(bus, new Shares.ShareRef(bobId, share)))).isEqualTo(Failure.NOT_FOUND);
    assertThat(ApiOps.SHARE_LIST.call(bus, new UserRef(bobId)).await()).isEmpty();
    assertThat(chat.sqlite("SELECT COUNT(*) FROM shares WHERE revoked_at IS NULL")).isEqualTo(1);
    assertThat(failure(datasets.add(bobId, conversation, chat.files.url("/people.parquet") + "?bus"))).isEqualTo(Failure.NOT_FOUND);
    assertThat(failure(datasets.rename(bobId, conversation, dataset, "stolen"))).isEqualTo(Failure.NOT_FOUND);
    assertThat(failure(datasets.refresh(bobId, conversation, dataset))).isEqualTo(Failure.NOT_FOUND);
    assertThat(failure(datasets.remove(bobId, conversation, dataset))).isEqualTo(Failure.NOT_FOUND);
    assertThat(failure(datasets.profile(bobId, conversation, dataset, null, ""))).isEqualTo(Failure.NOT_FOUND);
    assertThat(failure(datasets.query(bobId, conversation, "SELECT * FROM table1"))).isEqualTo(Failure.NOT_FOUND);
    assertThat(failure(llm.start(bobId, conversation, "Leak it"))).isEqualTo(Failure.NOT_FOUND);
    assertThat(failure(llm.stop(bobId, conversation))).isEqualTo(Failure.NOT_FOUND);
    assertThat(failure(llm.followUps(bobId, conversation, answer))).isEqualTo(Failure.NOT_FOUND);
    BoardRef boardRef = new BoardRef(bobId, board);
    TileRef tileRef = new TileRef(bobId, board, tile);
    assertThat(failure(BoardOps.GET.call(bus, boardRef))).isEqualTo(Failure.NOT_FOUND);
    assertThat(failure(BoardOps.RENAME.call(bus, new BoardOps.RenameBoard(bobId, board, "Bob's now"))))
        .isEqualTo(Failure.NOT_FOUND);
    assertThat(failure(BoardOps.PIN.call(bus, new BoardOps.PinTile(bobId, board, null, result, Tile.TABLE, null,
        null)))).isEqualTo(Failure.NOT_FOUND);
    assertThat(failure(BoardOps.REORDER.call(bus, new BoardOps.ReorderTiles(bobId, board, List.of(tile)))))
        .isEqualTo(Failure.NOT_FOUND);
    assertThat(failure(BoardOps.RUN.call(bus, tileRef))).isEqualTo(Failure.NOT_FOUND);
    assertThat(failure(BoardOps.RUN_ALL.call(bus, boardRef))).isEqualTo(Failure.NOT_FOUND);
    assertThat(failure(BoardOps.STALE.call(bus, boardRef))).isEqualTo(Failure.NOT_FOUND);
    assertThat(failure(BoardOps.UNPIN.call(bus, tileRef))).isEqualTo(Failure.NOT_FOUND);
    assertThat(failure(BoardOps.DELETE.call(bus, boardRef))).isEqualTo(Failure.NOT_FOUND);
    assertThat(BoardOps.LIST.call(bus, new UserRef(bobId)).await()).isEmpty();
    ScheduleRef bobs = new ScheduleRef(bobId, schedule);
    assertThat(failure(ScheduleOps.API_CREATE.call(bus, new CreateSchedule(bobId, result, null, "daily", null, null,
        null, null)))).isEqualTo(Failure.NOT_FOUND);
    assertThat(failure(ScheduleOps.API_CREATE.call(bus, new CreateSchedule(bobId, null, tile, "daily", null, null,
        null, null)))).isEqualTo(Failure.NOT_FOUND);
    assertThat(failure(ScheduleOps.API_PAUSE.call(bus, bobs))).isEqualTo(Failure.NOT_FOUND);
    assertThat(failure(ScheduleOps.API_RESUME.call(bus, bobs))).isEqualTo(Failure.NOT_FOUND);
    assertThat(failure(ScheduleOps.API_DELETE.call(bus, bobs))).isEqualTo(Failure.NOT_FOUND);
    assertThat(failure(ScheduleOps.API_RUNS.call(bus, bobs))).isEqualTo(Failure.NOT_FOUND);
    assertThat(failure(ScheduleOps.API_RUN_NOW.call(bus, bobs))).isEqualTo(Failure.NOT_FOUND);
    assertThat(ScheduleOps.API_LIST.call(bus, new UserRef(bobId)).await()).isEmpty();
    assertUnchanged();
  }

  private void assertUnchanged() throws Exception {
    assertThat(chat.sqlite("SELECT COUNT(*) FROM conversations WHERE title = 'Alice''s' AND user_id = '" + aliceId + "'"))
        .isEqualTo(1);
    assertThat(chat.sqlite("SELECT COUNT(*) FROM messages")).isEqualTo(2);
    assertThat(chat.sqlite("SELECT COUNT(*) FROM datasets WHERE name = 'table1' AND status = 'ready'")).isEqualTo(1);
    assertThat(chat.sqlite("SELECT COUNT(*) FROM datasets")).isEqualTo(1);
    assertThat(chat.sqlite("SELECT COUNT(*) FROM query_results")).isEqualTo(1);
    assertThat(chat.sqlite("SELECT COUNT(*) FROM token_usage WHERE user_id = '" + bobId + "'")).isZero();
    assertThat(chat.sqlite("SELECT COUNT(*) FROM boards WHERE title = 'Alice board' AND user_id = '" + aliceId + "'"))
        .isEqualTo(1);
    assertThat(chat.sqlite("SELECT COUNT(*) FROM tiles WHERE board_id = '" + board + "' AND id = '" + tile
        + "' AND position = 0")).isEqualTo(1);
    assertThat(chat.sqlite("SELECT COUNT(*) FROM tiles")).isEqualTo(1);
    assertThat(chat.sqlite("SELECT COUNT(*) FROM schedules")).isEqualTo(1);
    assertThat(chat.sqlite("SELECT COUNT(*) FROM schedules WHERE id = '" + schedule + "' AND user_id = '" + aliceId
        + "' AND paused = 0 AND next_run_at = '" + nextRunAt + "'")).isEqualTo(1);
  }
}
