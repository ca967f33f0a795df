package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.ChatMessage;
import io.quarry.bus.QueryResult;
import io.quarry.bus.RowsJson;
import io.quarry.bus.StorageClient;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.json.schema.OutputUnit;
import io.vertx.openapi.validation.ResponseValidator;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Issue 50 item 3: real answers of a node fit the contracts programs read. Each response of the main routes is
 * validated against its operation in /api/openapi.json, and each event the WebSocket delivers against
 * docs/schemas/quarry-bus.schema.json, both in the strict view ({@link Contracts}): a field the server sends that
 * the contract does not declare, a type or a status it does not describe, fails here.
 */
class OpenApiResponsesTest extends ChatTestBase {

  private static final String UNKNOWN = "00000000-0000-4000-8000-000000000000";

  ResponseValidator validator;

  @Override
  boolean sharesNode() {
    return true;
  }

  @BeforeEach
  void contract() {
    validator = Contracts.responses(chat.outside);
  }

  /** Sends, checks the status, validates the answer as {@code operationId}'s, and gives it back. */
  private HttpResponse<Buffer> valid(String operationId, int status, HttpMethod method, String path, JsonObject body) {
    HttpResponse<Buffer> response = chat.send(method, path, body);
    assertThat(response.statusCode()).as("%s %s: %s", method, path, response.bodyAsString()).isEqualTo(status);
    Contracts.validate(validator, operationId, response);
    return response;
  }

  private JsonObject validJson(String operationId, int status, HttpMethod method, String path, JsonObject body) {
    return valid(operationId, status, method, path, body).bodyAsJsonObject();
  }

  @Test
  @DisplayName("the document, health, readiness, nodes, the user, usage and samples answer as documented;"
      + " so do sign-out, a refused sign-in, an unknown token and a body that is not JSON")
  void nodeAndAccount() {
    valid("getOpenApi", 200, HttpMethod.GET, "/api/openapi.json", null);
    validJson("getHealth", 200, HttpMethod.GET, "/api/health", null);
    validJson("getLive", 200, HttpMethod.GET, "/api/health/live", null);
    valid("getReady", 200, HttpMethod.GET, "/api/health/ready", null);
    JsonObject nodes = validJson("getNodes", 200, HttpMethod.GET, "/api/health/nodes", null);
    assertThat(nodes.getJsonObject("local_workers").getJsonArray("workers")).isNotEmpty();
    validJson("getMe", 200, HttpMethod.GET, "/api/me", null);
    validJson("getUsage", 200, HttpMethod.GET, "/api/usage", null);
    assertThat(validJson("listSamples", 200, HttpMethod.GET, "/api/samples", null).getJsonArray("samples")).isNotEmpty();
    // Local mode has no accounts: a sign-in is refused with the error shape.
    validJson("signIn", 400, HttpMethod.POST, "/api/auth/signin", new JsonObject().put("email", "a@example.com")
        .put("password", "correct horse battery"));
    validJson("signOut", 200, HttpMethod.POST, "/api/auth/signout", new JsonObject());
    // A program's unknown token, and a body that is not JSON: the error shape, with their documented statuses.
    HttpResponse<Buffer> unknown = chat.client.get("/api/me").putHeader("Authorization", "Bearer qt_unknown").send()
        .await();
    assertThat(unknown.statusCode()).isEqualTo(401);
    Contracts.validate(validator, "getMe", unknown);
    HttpResponse<Buffer> text = chat.client.post("/api/conversations").putHeader("Content-Type", "text/plain")
        .sendBuffer(Buffer.buffer("Sales")).await();
    assertThat(text.statusCode()).isEqualTo(415);
    Contracts.validate(validator, "createConversation", text);
  }

  @Test
  @DisplayName("conversations, datasets, a query, its stored result, a chart, a JSON export, and their"
      + " errors answer as documented")
  void conversationsDatasetsQueries() {
    String path = "/api/conversations";
    String id = validJson("createConversation", 201, HttpMethod.POST, path, new JsonObject().put("title", "Sales"))
        .getString("id");
    validJson("createConversation", 400, HttpMethod.POST, path, new JsonObject().put("title", 5));
    validJson("renameConversation", 200, HttpMethod.PATCH, path + "/" + id, new JsonObject().put("title", "People"));
    validJson("listConversations", 200, HttpMethod.GET, path, null);
    assertThat(validJson("listConversations", 200, HttpMethod.GET, path + "?q=peop", null)
        .getJsonArray("conversations").getJsonObject(0).containsKey("match")).isTrue();
    String datasets = path + "/" + id + "/datasets";
    String did = validJson("addDataset", 201, HttpMethod.POST, datasets,
        new JsonObject().put("url", chat.files.url("/people.parquet"))).getString("id");
    validJson("addDataset", 400, HttpMethod.POST, datasets, new JsonObject().put("url", "not a url"));
    validJson("checkDatasetVersions", 200, HttpMethod.POST, datasets + "/versions", null);
    validJson("renameDataset", 200, HttpMethod.PATCH, datasets + "/" + did, new JsonObject().put("name", "people"));
    validJson("refreshDataset", 200, HttpMethod.POST, datasets + "/" + did + "/refresh", null);

    String query = path + "/" + id + "/query";
    JsonObject result = validJson("runQuery", 200, HttpMethod.POST, query, new JsonObject()
        .put("sql", "SELECT name, age, score, joined, active FROM people ORDER BY id LIMIT 3").put("origin", "runner"));
    assertThat(result.getString("origin")).isEqualTo("runner");
    JsonObject wrong = validJson("runQuery", 400, HttpMethod.POST, query, new JsonObject().put("sql", "SELEC 1"));
    assertThat(wrong.getString("error_type")).isEqualTo("sql");
    String rid = result.getString("id");
    validJson("getResult", 200, HttpMethod.GET, "/api/results/" + rid, null);
    validJson("getResult", 404, HttpMethod.GET, "/api/results/" + UNKNOWN, null);
    validJson("chartResult", 200, HttpMethod.POST, "/api/results/" + rid + "/chart",
        new JsonObject().put("chart_type", "bar").put("x", "name").put("y", "age"));
    valid("exportResult", 200, HttpMethod.GET, "/api/results/" + rid + "/export?format=json&sort=age&dir=desc", null);
    validJson("exportResult", 400, HttpMethod.GET, "/api/results/" + rid + "/export?format=xls", null);

    JsonObject read = validJson("getConversation", 200, HttpMethod.GET, path + "/" + id, null);
    assertThat(read.getJsonArray("runs")).hasSize(1);
    assertThat(read.getJsonArray("datasets")).hasSize(1);
    validJson("getConversation", 404, HttpMethod.GET, path + "/" + UNKNOWN, null);
    valid("removeDataset", 204, HttpMethod.DELETE, datasets + "/" + did, null);
    valid("deleteConversation", 204, HttpMethod.DELETE, path + "/" + id, null);
  }

  @Test
  @DisplayName("a question, its stored answer with its tool round and checked numbers, stopping and a refused"
      + " continuation answer as documented, and every event the WebSocket delivered fits the event schemas")
  void answerAndEvents() throws Exception {
    chat.addDataset(conversation, "/people.parquet");
    chat.model().next().text("Let me count. ").call("execute_sql", new JsonObject().put("query",
        "SELECT count(*) AS n FROM table1")).usage(50, 10);
    chat.model().next().answer("There are ", "100 people.");
    String messages = "/api/conversations/" + conversation + "/messages";
    String answer = validJson("ask", 202, HttpMethod.POST, messages, new JsonObject().put("content", "How many?"))
        .getString("message_id");
    socket.untilTurnEnds();
    JsonObject read = validJson("getConversation", 200, HttpMethod.GET, "/api/conversations/" + conversation, null);
    assertThat(read.getJsonArray("messages").getJsonObject(1).getJsonArray("tool_rounds")).isNotEmpty();
    validJson("stopAnswer", 200, HttpMethod.POST, "/api/conversations/" + conversation + "/stop", null);
    validJson("continueAnswer", 409, HttpMethod.POST, messages + "/" + answer + "/continue", null);
    validJson("ask", 400, HttpMethod.POST, messages, new JsonObject().put("content", ""));

    List<JsonObject> events = socket.seen();
    assertThat(events.stream().map(e -> e.getString("type")).toList()).contains("dataset_loading", "dataset_loaded",
        "chat_token", "tool_call_start", "query_result", "chat_complete");
    for (JsonObject event : events) {
      OutputUnit typed = Contracts.busValidate("event." + event.getString("type"), event);
      assertThat(typed.getValid()).as("%s: %s", event.encode(), typed).isTrue();
      assertThat(Contracts.busValidate("event", event).getValid()).as(event.encode()).isTrue();
    }
  }

  @Test
  @DisplayName("share links: made, refused past the ceiling, listed, what a link opens, its download, revoked and then"
      + " not found, answer as documented")
  void shares() {
    String id = validJson("createConversation", 201, HttpMethod.POST, "/api/conversations",
        new JsonObject().put("title", "Shared")).getString("id");
    String user = chat.send(HttpMethod.GET, "/api/me", null).bodyAsJsonObject().getString("id");
    StorageClient storage = new StorageClient(chat.node.vertx());
    JsonArray columns = new JsonArray().add(new JsonObject().put("name", "n").put("type", "INTEGER"));
    QueryResult result = storage.saveResult(user, new QueryResult(null, id, "SELECT 1 AS n", columns,
        RowsJson.of(new JsonArray().add(new JsonArray().add(1))), 1, false, 3, null, null)).await();
    storage.appendMessage(user, ChatMessage.user(id, "One?")).await();
    storage.appendMessage(user, new ChatMessage(null, id, ChatMessage.ASSISTANT, "One.", new JsonArray(),
        new JsonArray().add(result.sql()), new JsonArray().add(result.id()), new JsonArray(), 1, 1,
        ChatMessage.COMPLETE, null, null)).await();

    JsonObject made = validJson("createShare", 201, HttpMethod.POST, "/api/shares", new JsonObject()
        .put("conversation_id", id).put("display_name", "Ada").put("expires_in_days", 7));
    validJson("createShare", 400, HttpMethod.POST, "/api/shares", new JsonObject().put("conversation_id", id)
        .put("audience", "anyone"));
    validJson("createShare", 404, HttpMethod.POST, "/api/shares", new JsonObject().put("conversation_id", UNKNOWN));
    validJson("listShares", 200, HttpMethod.GET, "/api/shares", null);
    String shared = "/api/s/" + made.getString("token");
    assertThat(validJson("getShared", 200, HttpMethod.GET, shared, null).getJsonArray("results")).hasSize(1);
    valid("downloadShared", 200, HttpMethod.GET, shared + "/results/" + result.id() + "?format=json", null);
    validJson("downloadShared", 400, HttpMethod.GET, shared + "/results/" + result.id() + "?format=xls", null);
    valid("revokeShare", 204, HttpMethod.DELETE, "/api/shares/" + made.getString("id"), null);
    validJson("getShared", 404, HttpMethod.GET, shared, null);
    validJson("revokeShare", 404, HttpMethod.DELETE, "/api/shares/" + UNKNOWN, null);
  }

  @Test
  @DisplayName("boards: made, listed, read, renamed, a table and a chart pinned, reordered, checked for staleness, a tile"
      + " and the board run again, a tile removed, the board deleted, and their errors answer as documented")
  void boards() {
    chat.addDataset(conversation, "/people.parquet");
    String result = query("SELECT name, age FROM table1 ORDER BY id LIMIT 3").getString("id");
    String board = validJson("createBoard", 201, HttpMethod.POST, "/api/boards", new JsonObject().put("title", "B"))
        .getString("id");
    String b = "/api/boards/" + board;
    valid("listBoards", 200, HttpMethod.GET, "/api/boards", null);
    valid("renameBoard", 200, HttpMethod.PATCH, b, new JsonObject().put("title", "Board"));
    String table = validJson("pinTile", 201, HttpMethod.POST, b + "/tiles", new JsonObject().put("result_id", result)
        .put("kind", "table")).getString("id");
    String chart = validJson("pinTile", 201, HttpMethod.POST, b + "/tiles", new JsonObject().put("result_id", result)
        .put("kind", "chart").put("chart", new JsonObject().put("chart_type", "bar").put("x", "name")
            .put("y", new io.vertx.core.json.JsonArray().add("age")))).getString("id");
    valid("pinTile", 400, HttpMethod.POST, b + "/tiles", new JsonObject().put("kind", "table"));
    valid("getBoard", 200, HttpMethod.GET, b, null);
    valid("reorderTiles", 200, HttpMethod.PUT, b + "/order", new JsonObject().put("tile_ids",
        new io.vertx.core.json.JsonArray().add(chart).add(table)));
    valid("boardStaleness", 200, HttpMethod.GET, b + "/stale", null);
    valid("runTile", 200, HttpMethod.POST, b + "/tiles/" + chart + "/run", null);
    valid("runBoard", 200, HttpMethod.POST, b + "/run", null);
    String shared = sharedBoard(board, table, chart);
    valid("unpinTile", 204, HttpMethod.DELETE, b + "/tiles/" + table, null);
    valid("unpinTile", 404, HttpMethod.DELETE, b + "/tiles/" + table, null);
    valid("deleteBoard", 204, HttpMethod.DELETE, b, null);
    valid("getBoard", 404, HttpMethod.GET, b, null);
    validJson("getShared", 404, HttpMethod.GET, shared, null);
  }

  /** The board shared, what its link opens and its tiles' downloads, as documented: the link's address. */
  private String sharedBoard(String board, String table, String chart) {
    JsonObject made = validJson("createShare", 201, HttpMethod.POST, "/api/shares", new JsonObject()
        .put("board_id", board).put("display_name", "Ada"));
    assertThat(made.getString("board_id")).isEqualTo(board);
    validJson("createShare", 404, HttpMethod.POST, "/api/shares", new JsonObject().put("board_id", UNKNOWN));
    validJson("createShare", 400, HttpMethod.POST, "/api/shares", new JsonObject().put("board_id", board)
        .put("conversation_id", conversation));
    assertThat(validJson("listShares", 200, HttpMethod.GET, "/api/shares", null).getJsonArray("shares")
        .getJsonObject(0).getString("kind")).isEqualTo("board");
    String shared = "/api/s/" + made.getString("token");
    assertThat(validJson("getShared", 200, HttpMethod.GET, shared, null).getJsonArray("tiles")).hasSize(2);
    valid("downloadSharedTile", 200, HttpMethod.GET, shared + "/tiles/" + table + "?format=json", null);
    valid("downloadSharedTile", 200, HttpMethod.GET, shared + "/tiles/" + chart + "?format=json", null);
    validJson("downloadSharedTile", 400, HttpMethod.GET, shared + "/tiles/" + table + "?format=xls", null);
    validJson("downloadSharedTile", 404, HttpMethod.GET, shared + "/tiles/" + UNKNOWN, null);
    return shared;
  }

  @Test
  @DisplayName("the records the REST document and the bus schemas share have the same fields in both")
  void sameRecords() {
    JsonObject rest = Contracts.openApi().getJsonObject("components").getJsonObject("schemas");
    JsonObject bus = Contracts.busSchema().getJsonObject("$defs");
    for (String name : List.of("User", "Conversation", "Column", "DatasetColumn", "Dataset", "Source", "ExportFile",
        "ResultRun", "NumbersCheck", "ChatMessage", "ConversationRead", "ChartData", "Budget", "NodeInfo", "Board", "Tile",
        "BoardRead", "TileRun", "Staleness")) {
      assertThat(fields(rest, name)).as(name).isEqualTo(fields(bus, name));
    }
    // REST's answer to a query sent with an origin says so; the bus's result has no such fields.
    assertThat(fields(rest, "QueryResult")).containsAll(fields(bus, "QueryResult"))
        .hasSize(fields(bus, "QueryResult").size() + 2).contains("origin", "message_id");
  }

  private static Set<String> fields(JsonObject schemas, String name) {
    return schemas.getJsonObject(name).getJsonObject("properties").fieldNames();
  }
}
