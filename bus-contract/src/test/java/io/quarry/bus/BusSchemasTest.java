package io.quarry.bus;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.ApiOps.ConversationRead;
import io.quarry.bus.LlmOps.Budget;
import io.quarry.bus.LlmOps.Stopped;
import io.quarry.bus.LlmOps.TurnContinued;
import io.quarry.bus.LlmOps.TurnStarted;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.json.schema.OutputUnit;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 50 item 3: docs/schemas/quarry-bus.schema.json describes every public operation's request and reply and every
 * event as the records write them. Each is written filled in (every field it has, none null) by its own codec or
 * ChatEvents, sent through JSON text as on the wire, and validated in the strict view ({@link SchemaChecks}): a field
 * a record gains without the schema, or one whose type changes, fails here.
 */
class BusSchemasTest {

  private static final Path SCHEMA = Path.of("..", "docs", "schemas", "quarry-bus.schema.json");
  private static final String ID = "0f8fad5b-d9cb-469f-a165-70867728950e";
  private static final String AT = "2026-01-02T03:04:05.000Z";

  static final User USER = new User("u", "ada@example.com", AT);
  static final Conversation CONVERSATION = new Conversation(ID, "u", "Sales", AT, AT);
  static final Dataset DATASET = new Dataset("d", ID, "https://example.com/a.parquet", "table1", 100L, 2,
      new JsonArray().add(new JsonObject().put("name", "a").put("type", "BIGINT").put("friendly_type", "whole number")),
      Dataset.READY, "none", 1234L, "\"e1\"", AT, AT);
  static final JsonArray COLUMNS = new JsonArray().add(new JsonObject().put("name", "n").put("type", "BIGINT"));
  static final JsonArray SOURCES = Source.toJson(List.of(new Source("table1", "https://example.com/a.parquet", "\"e1\"",
      "Tue, 01 Jan 2026 00:00:00 GMT", 1234L, AT)));
  static final QueryResult RESULT = new QueryResult("r", ID, "SELECT 1 AS n", COLUMNS,
      RowsJson.of(new JsonArray().add(new JsonArray().add(1))), 1, false, 3, AT, "From a cached copy", SOURCES);
  static final QueryResult EXPORTED = new QueryResult("r", ID, "SELECT 1 AS n", COLUMNS, RowsJson.EMPTY, 1, false, 3,
      AT, "From a cached copy", SOURCES, new Export.File("export.1", "csv", 1, 2).toJson());
  static final JsonObject NUMBERS = new JsonObject().put("checked", 2).put("matched", 1)
      .put("unmatched", new JsonArray().add(new JsonObject().put("text", "7").put("position", 3)))
      .put("cells", new JsonArray().add(new JsonObject().put("text", "1").put("position", 0).put("result_id", "r")
          .put("row", 0).put("column", "n")))
      .put("several", new JsonArray().add(new JsonObject().put("text", "2").put("position", 9).put("count", 2)));
  static final ChatMessage MESSAGE = new ChatMessage("m", ID, ChatMessage.ASSISTANT, "One.",
      new JsonArray().add(new JsonObject().put("tool", "execute_sql")), new JsonArray().add("SELECT 1 AS n"),
      new JsonArray().add("r"), new JsonArray().add(new JsonObject().put("chart_type", "bar")), 10, 2,
      ChatMessage.COMPLETE, "The answer was cut off at the model's output limit.", AT, NUMBERS);
  static final Shares.Share SHARE = new Shares.Share("s", Shares.MESSAGE, ID, "m", null, Shares.ANYONE, "Ada", "Sales",
      AT, AT, AT, AT);
  static final ResultRun RUN = new ResultRun("r", ID, ResultRun.EDITED, "m", AT);
  static final ChartData CHART = new ChartData(new JsonObject().put("chart_type", "bar").put("x", "n"), COLUMNS,
      new JsonArray().add(new JsonArray().add(1)), "every row");

  static final Profile PROFILE = new Profile(100L, List.of(new Profile.Column("a", "BIGINT", 0L, "1", "99", 98L, true)),
      new Profile.Top("a", List.of(new Profile.Frequent(7, 3)), List.of(new Profile.Bin(50, 60))),
      "Distinct values of 1 column (b) were not computed");

  static final Board BOARD = new Board(ID, "KPIs", 2, AT, AT);
  static final Tile TILE = new Tile("t", ID, 0, "Sales", Tile.CHART, CHART.toJson(), "SELECT 1 AS n", ID, SOURCES,
      COLUMNS, RowsJson.of(new JsonArray().add(new JsonArray().add(1))), 1, false, AT, true, new JsonObject()
      .put("id", "s").put("every", "daily").put("at", "09:00").put("time_zone", "Europe/Paris").put("next_run_at", AT)
      .put("paused", false).put("last_run", new JsonObject().put("due_at", AT).put("finished_at", AT)
          .put("status", "ok").put("summary", "3 rows added, total 1,204 → 1,377").put("reason", null)));
  static final Tile TABLE_TILE = new Tile("t2", ID, 1, "Rows", Tile.TABLE, null, "SELECT 1 AS n", null, SOURCES,
      COLUMNS, RowsJson.of(new JsonArray().add(new JsonArray().add(1))), 1, false, AT, false, null);
  static final Schedule SCHEDULE = new Schedule("s", "u", Schedule.RESULT, "r", ID, "SELECT 1 AS n",
      Cadence.of("weekly", "09:00", "monday", "Europe/Paris"), "https://hooks.example.com/q", "whsec_1", AT, false, AT);
  static final JsonObject COMPARISON = new JsonObject().put("first", false).put("rows_before", 4).put("rows_after", 7)
      .put("added", 3).put("removed", 0).put("changed", 0).put("truncated", false).put("moved", new JsonArray()
      .add(new JsonObject().put("column", "amount").put("before", 1204).put("after", 1377).put("change", 173)));
  static final ScheduleRun SCHEDULE_RUN = new ScheduleRun("run", "s", AT, ScheduleRun.FAILED, "Table not found", "r",
      COLUMNS, new JsonArray().add(new JsonArray().add(1)), "3 rows added, total 1,204 → 1,377", COMPARISON, true,
      ScheduleRun.PENDING, 1, AT, "The webhook answered HTTP 500", AT, AT);

  /** A reply of each public operation with every field it has filled in. */
  static final Map<Operation<?, ?>, Object> REPLIES = new LinkedHashMap<>();

  static {
    REPLIES.put(ApiOps.USER_LOCAL, USER);
    REPLIES.put(ApiOps.USER_FIND, USER);
    REPLIES.put(ApiOps.CONVERSATION_CREATE, CONVERSATION);
    REPLIES.put(ApiOps.CONVERSATION_LIST, List.of(CONVERSATION));
    REPLIES.put(ApiOps.CONVERSATION_GET, new ConversationRead(CONVERSATION, List.of(MESSAGE), List.of(DATASET),
        List.of(RUN)));
    REPLIES.put(ApiOps.CONVERSATION_RENAME, CONVERSATION);
    REPLIES.put(ApiOps.CONVERSATION_DELETE, null);
    REPLIES.put(ApiOps.DATASET_ADD, DATASET);
    REPLIES.put(ApiOps.DATASET_LIST, List.of(DATASET));
    REPLIES.put(ApiOps.DATASET_RENAME, DATASET);
    REPLIES.put(ApiOps.DATASET_REFRESH, DATASET);
    REPLIES.put(ApiOps.DATASET_REMOVE, DATASET);
    REPLIES.put(ApiOps.DATASET_PROFILE, PROFILE);
    REPLIES.put(ApiOps.QUERY_RUN, RESULT);
    REPLIES.put(ApiOps.QUERY_EXPORT, EXPORTED);
    REPLIES.put(ApiOps.RESULT_GET, RESULT);
    REPLIES.put(ApiOps.TURN_START, new TurnStarted("m", "q"));
    REPLIES.put(ApiOps.TURN_CONTINUE, new TurnContinued("m"));
    REPLIES.put(ApiOps.TURN_STOP, new Stopped(true));
    REPLIES.put(ApiOps.TURN_FOLLOW_UPS, new LlmOps.FollowUps(List.of("Which region grew fastest?")));
    REPLIES.put(ApiOps.USAGE_GET, new Budget(10, 100, 90, 10.0, 0, true));
    REPLIES.put(ApiOps.PING, new NodeInfo("n1", "1.0", List.of("web")));
    REPLIES.put(ApiOps.SHARE_CREATE, new ApiOps.ShareMade(SHARE, "qs_token", "/s/qs_token"));
    REPLIES.put(ApiOps.SHARE_LIST, List.of(SHARE));
    REPLIES.put(ApiOps.SHARE_REVOKE, SHARE);
    REPLIES.put(BoardOps.CREATE, BOARD);
    REPLIES.put(BoardOps.LIST, List.of(BOARD));
    REPLIES.put(BoardOps.GET, new BoardOps.BoardRead(BOARD, List.of(TILE, TABLE_TILE)));
    REPLIES.put(BoardOps.RENAME, BOARD);
    REPLIES.put(BoardOps.DELETE, null);
    REPLIES.put(BoardOps.PIN, TILE);
    REPLIES.put(BoardOps.UNPIN, null);
    REPLIES.put(BoardOps.REORDER, new BoardOps.BoardRead(BOARD, List.of(TABLE_TILE, TILE)));
    REPLIES.put(BoardOps.RUN, TILE);
    REPLIES.put(BoardOps.RUN_ALL, List.of(new BoardOps.TileRun("t", true, "none", TILE)));
    REPLIES.put(BoardOps.STALE, List.of(new BoardOps.Staleness("t", true, "The dataset table1 was removed")));
    REPLIES.put(ScheduleOps.API_CREATE, SCHEDULE);
    REPLIES.put(ScheduleOps.API_LIST, List.of(SCHEDULE));
    REPLIES.put(ScheduleOps.API_PAUSE, SCHEDULE);
    REPLIES.put(ScheduleOps.API_RESUME, SCHEDULE);
    REPLIES.put(ScheduleOps.API_DELETE, null);
    REPLIES.put(ScheduleOps.API_RUNS, List.of(SCHEDULE_RUN));
    REPLIES.put(ScheduleOps.API_RUN_NOW, SCHEDULE);
  }

  /** An event of each type with every field it has filled in, as ChatEvents (or the WebSocket, for ping) writes it. */
  static final Map<String, JsonObject> EVENTS = new LinkedHashMap<>();

  static {
    for (String type : List.of(ChatEvents.DATASET_LOADING, ChatEvents.DATASET_LOADED, ChatEvents.DATASET_ERROR,
        ChatEvents.DATASET_REMOVED)) {
      EVENTS.put(type, ChatEvents.dataset(type, DATASET));
    }
    EVENTS.put(ChatEvents.CHAT_TOKEN, ChatEvents.chatToken(ID, "m", "Hel"));
    EVENTS.put(ChatEvents.QUERY_STATUS, ChatEvents.queryStatus(ID, "executing"));
    EVENTS.put(ChatEvents.TOOL_CALL_START, ChatEvents.toolCallStart(ID, "execute_sql",
        new JsonObject().put("query", "SELECT 1")));
    EVENTS.put(ChatEvents.QUERY_RESULT, ChatEvents.queryResult(RESULT));
    EVENTS.put(ChatEvents.QUERY_ERROR, ChatEvents.queryError(ID, "SELEC 1", "syntax error"));
    EVENTS.put(ChatEvents.QUERY_PROGRESS, ChatEvents.queryProgress(ID, new JsonArray().add(new JsonObject()
        .put("table", "table1").put("bytes_done", 10L).put("bytes_total", 100L))));
    EVENTS.put(ChatEvents.CHART, ChatEvents.chart(ID, "r", CHART));
    EVENTS.put(ChatEvents.TABLE, ChatEvents.table(ID, "r", "Top", new JsonArray().add("n")));
    EVENTS.put(ChatEvents.CHAT_COMPLETE, ChatEvents.chatComplete(ID, "m", 10, 2, "Cut off.", NUMBERS));
    EVENTS.put(ChatEvents.CHAT_ERROR, ChatEvents.chatError(ID, "m", "The model failed", "HTTP 500"));
    EVENTS.put(ChatEvents.RATE_LIMIT_WARNING, ChatEvents.rateLimitWarning(ID, 81.5, 1000));
    EVENTS.put(ChatEvents.RATE_LIMIT_EXCEEDED, ChatEvents.rateLimitExceeded(ID, 3600));
    EVENTS.put(ChatEvents.CONVERSATION_UPDATED, ChatEvents.conversationUpdated(ID, "Sales"));
    EVENTS.put(ChatEvents.PING, new JsonObject().put("type", ChatEvents.PING));
    EVENTS.put(ChatEvents.SCHEDULE_RUN, ScheduleOps.event(SCHEDULE, SCHEDULE_RUN));
  }

  static JsonObject schema() throws IOException {
    return new JsonObject(Files.readString(SCHEMA));
  }

  /** As the bus or the bridge carries it: JSON text (rows are written as the text they are). */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private static JsonObject wire(Codec codec, Object value) {
    return new JsonObject(((JsonObject) codec.encode(value)).encode());
  }

  private static void assertValid(JsonObject schema, String name, JsonObject instance) {
    OutputUnit result = SchemaChecks.validate(SchemaChecks.strict(schema), name, instance);
    assertThat(result.getValid()).as("%s against $defs/%s: %s", instance.encode(), name, result).isTrue();
  }

  static Stream<String> addresses() {
    return ApiOps.ALL.stream().map(Operation::address);
  }

  private static Operation<?, ?> op(String address) {
    return ApiOps.ALL.stream().filter(o -> o.address().equals(address)).findFirst().orElseThrow();
  }

  @Test
  @DisplayName("the schema has a version and the compatibility policy; a request and a reply of every public"
      + " operation, an event of every type, and nothing else of those names")
  void everything() throws Exception {
    JsonObject schema = schema();
    assertThat(schema.getString("version")).matches("\\d+\\.\\d+\\.\\d+");
    assertThat(schema.getString("description")).contains("A new major version is needed");
    Set<String> expected = new TreeSet<>();
    ApiOps.ALL.forEach(op -> expected.addAll(List.of(op.address() + ".request", op.address() + ".reply")));
    constants(ChatEvents.class).forEach(type -> expected.add("event." + type));
    Set<String> named = schema.getJsonObject("$defs").fieldNames().stream()
        .filter(n -> n.startsWith("api.") || n.startsWith("event.")).collect(Collectors.toCollection(TreeSet::new));
    assertThat(named).isEqualTo(expected);
    assertThat(REPLIES.keySet()).containsExactlyElementsOf(ApiOps.ALL);
    assertThat(EVENTS.keySet()).containsExactlyInAnyOrderElementsOf(constants(ChatEvents.class));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("addresses")
  @DisplayName("the operation's filled request and reply, as its codecs write them, are valid and declare"
      + " every field")
  void operation(String address) throws Exception {
    Operation<?, ?> op = op(address);
    JsonObject schema = schema();
    assertValid(schema, address + ".request", wire(op.request(), RequestFieldsTest.FILLED.get(op)));
    assertValid(schema, address + ".reply", wire(op.reply(), REPLIES.get(op)));
  }

  static Stream<String> eventTypes() {
    return EVENTS.keySet().stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("eventTypes")
  @DisplayName("the event, filled, is valid against its type's schema and is exactly one of all events")
  void event(String type) throws Exception {
    JsonObject schema = schema();
    JsonObject event = new JsonObject(EVENTS.get(type).encode());
    assertValid(schema, "event." + type, event);
    assertValid(schema, "event", event);
  }

  @Test
  @DisplayName("the strict view refuses a field the schema does not declare, and a field of the wrong type")
  void strictViewBites() throws Exception {
    JsonObject strict = SchemaChecks.strict(schema());
    JsonObject conversation = wire(ApiOps.CONVERSATION_CREATE.reply(), CONVERSATION);
    assertThat(SchemaChecks.validate(strict, "Conversation", conversation).getValid()).isTrue();
    assertThat(SchemaChecks.validate(strict, "Conversation", conversation.copy().put("pinned", true)).getValid())
        .isFalse();
    assertThat(SchemaChecks.validate(strict, "Conversation", conversation.copy().put("title", 5)).getValid()).isFalse();
    // The published schema itself stays open to fields added within a version.
    assertThat(SchemaChecks.validate(schema(), "Conversation", conversation.copy().put("pinned", true)).getValid())
        .isTrue();
  }

  private static Set<String> constants(Class<?> type) throws IllegalAccessException {
    Set<String> values = new TreeSet<>();
    for (Field field : type.getFields()) {
      if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class) {
        values.add((String) field.get(null));
      }
    }
    return values;
  }
}
