package io.quarry.bus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.bus.ApiOps.CreateConversation;
import io.quarry.bus.ApiOps.ExportQuery;
import io.quarry.bus.ApiOps.Query;
import io.quarry.bus.DatasetOps.AddDataset;
import io.quarry.bus.LlmOps.StartTurn;
import io.quarry.bus.Scopes.ConversationRef;
import io.quarry.bus.Scopes.DatasetRef;
import io.quarry.bus.Scopes.UserRef;
import io.quarry.bus.StorageOps.Email;
import io.quarry.bus.StorageOps.RenameConversation;
import io.quarry.bus.StorageOps.RenameDataset;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Review 48, item 8: every field of a public operation's request is text, and a number, object, array or boolean in
 * its place is BAD_REQUEST naming the field as the record decodes it, so that the bus, the bridge and anything else
 * that decodes it refuse alike. Before, a number as {@code title} became "New conversation", as {@code url} or
 * {@code name} became its digits, as {@code sql} or {@code content} was "required".
 */
class RequestFieldsTest {

  private static final String ID = "0f8fad5b-d9cb-469f-a165-70867728950e";

  /** A request of each public operation with every field it has filled in (BusSchemasTest validates them too). */
  static final Map<Operation<?, ?>, Object> FILLED = new LinkedHashMap<>();

  static {
    FILLED.put(ApiOps.USER_FIND, new Email("ada@example.com"));
    FILLED.put(ApiOps.CONVERSATION_CREATE, new CreateConversation("u", ID, "Sales"));
    FILLED.put(ApiOps.CONVERSATION_LIST, new UserRef("u"));
    FILLED.put(ApiOps.CONVERSATION_GET, new ConversationRef("u", "c"));
    FILLED.put(ApiOps.CONVERSATION_RENAME, new RenameConversation("u", "c", "Sales"));
    FILLED.put(ApiOps.CONVERSATION_DELETE, new ConversationRef("u", "c"));
    FILLED.put(ApiOps.DATASET_ADD, new AddDataset("u", "c", "https://example.com/a.parquet"));
    FILLED.put(ApiOps.DATASET_LIST, new ConversationRef("u", "c"));
    FILLED.put(ApiOps.DATASET_RENAME, new RenameDataset("u", "c", "d", "people"));
    FILLED.put(ApiOps.DATASET_REFRESH, new DatasetRef("u", "c", "d"));
    FILLED.put(ApiOps.DATASET_REMOVE, new DatasetRef("u", "c", "d"));
    FILLED.put(ApiOps.DATASET_PROFILE, new ApiOps.ProfileDataset("u", "c", "d", "price"));
    FILLED.put(ApiOps.QUERY_RUN, new Query("u", "c", "SELECT 1"));
    FILLED.put(ApiOps.QUERY_EXPORT, new ExportQuery("u", "c", "SELECT 1", "csv"));
    FILLED.put(ApiOps.RESULT_GET, new StorageOps.ResultRef("u", "r"));
    FILLED.put(ApiOps.TURN_START, new StartTurn("u", "c", "Hello"));
    FILLED.put(ApiOps.TURN_CONTINUE, new LlmOps.ContinueTurn("u", "c", "m"));
    FILLED.put(ApiOps.TURN_FOLLOW_UPS, new LlmOps.AnswerRef("u", "c", "m"));
    FILLED.put(ApiOps.TURN_STOP, new ConversationRef("u", "c"));
    FILLED.put(ApiOps.USAGE_GET, new UserRef("u"));
    FILLED.put(ApiOps.SHARE_CREATE, new ApiOps.CreateShare("u", "c", "m", "b", "anyone", "Ada", "30"));
    FILLED.put(ApiOps.SHARE_LIST, new UserRef("u"));
    FILLED.put(ApiOps.SHARE_REVOKE, new Shares.ShareRef("u", "s"));
    FILLED.put(BoardOps.CREATE, new BoardOps.NewBoard("u", ID, "KPIs"));
    FILLED.put(BoardOps.LIST, new UserRef("u"));
    FILLED.put(BoardOps.GET, new BoardOps.BoardRef("u", "b"));
    FILLED.put(BoardOps.RENAME, new BoardOps.RenameBoard("u", "b", "KPIs"));
    FILLED.put(BoardOps.DELETE, new BoardOps.BoardRef("u", "b"));
    FILLED.put(BoardOps.PIN, new BoardOps.PinTile("u", "b", ID, "r", Tile.CHART, new JsonObject()
        .put("chart_type", "bar").put("x", "n"), "Sales"));
    FILLED.put(BoardOps.UNPIN, new BoardOps.TileRef("u", "b", "t"));
    FILLED.put(BoardOps.REORDER, new BoardOps.ReorderTiles("u", "b", List.of("t2", "t1")));
    FILLED.put(BoardOps.RUN, new BoardOps.TileRef("u", "b", "t"));
    FILLED.put(BoardOps.RUN_ALL, new BoardOps.BoardRef("u", "b"));
    FILLED.put(BoardOps.STALE, new BoardOps.BoardRef("u", "b"));
    FILLED.put(ScheduleOps.API_CREATE, new ScheduleOps.CreateSchedule("u", "r", "t", "daily", "09:00", "monday",
        "Europe/Paris", "https://hooks.example.com/q"));
    FILLED.put(ScheduleOps.API_LIST, new UserRef("u"));
    FILLED.put(ScheduleOps.API_PAUSE, new ScheduleOps.ScheduleRef("u", "s"));
    FILLED.put(ScheduleOps.API_RESUME, new ScheduleOps.ScheduleRef("u", "s"));
    FILLED.put(ScheduleOps.API_DELETE, new ScheduleOps.ScheduleRef("u", "s"));
    FILLED.put(ScheduleOps.API_RUNS, new ScheduleOps.ScheduleRef("u", "s"));
    FILLED.put(ScheduleOps.API_RUN_NOW, new ScheduleOps.ScheduleRef("u", "s"));
  }

  /**
   * The fields of public requests that are not text, with what refuses anything else: a board tile's chart spec (an
   * object) and a board's new order (an array of tile ids).
   */
  private static final Map<String, Map.Entry<List<Object>, String>> NOT_TEXT_FIELDS = Map.of(
      "chart", Map.entry(List.of(5, 2.5, true, "bar", new JsonArray().add("a")), "Field 'chart' must be an object"),
      "tile_ids", Map.entry(List.of(5, 2.5, true, "t1", new JsonObject().put("a", 1), new JsonArray().add(5)),
          "Field 'tile_ids' must be an array of tile ids"));

  /** What a client may put where text belongs. */
  private static final List<Object> NOT_TEXT = List.of(5, 2.5, true, new JsonObject().put("a", 1), new JsonArray()
      .add("a"));

  @Test
  @DisplayName("each public operation but the local user's and the ping (which take nothing) has a filled request here")
  void everyOperation() {
    assertThat(ApiOps.ALL).filteredOn(op -> op != ApiOps.USER_LOCAL && op != ApiOps.PING)
        .containsExactlyInAnyOrderElementsOf(
        FILLED.keySet());
  }

  static Stream<String> addresses() {
    return FILLED.keySet().stream().map(Operation::address);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("addresses")
  @DisplayName("REVIEW-48-8: a number, object, array or boolean in any field of the request is BAD_REQUEST"
      + " \"Field 'x' must be a string\"; the filled request reads back as sent")
  @SuppressWarnings("unchecked")
  void fieldsAreText(String address) {
    Operation<Object, ?> op = (Operation<Object, ?>) FILLED.keySet().stream().filter(o -> o.address().equals(address))
        .findFirst().orElseThrow();
    Object request = FILLED.get(op);
    JsonObject filled = (JsonObject) op.request().encode(request);
    assertThat(op.request().decode(filled.copy())).isEqualTo(request);
    assertThat(filled.fieldNames()).isNotEmpty();
    for (String field : filled.fieldNames()) {
      var other = NOT_TEXT_FIELDS.get(field);
      for (Object wrong : other == null ? NOT_TEXT : other.getKey()) {
        JsonObject body = filled.copy().put(field, wrong);
        assertThatThrownBy(() -> op.request().decode(body)).as(op.address() + " " + field + " = " + wrong)
            .isInstanceOfSatisfying(QuarryException.class, e -> assertThat(e.failure()).isEqualTo(Failure.BAD_REQUEST))
            .hasMessage(other == null ? "Field '" + field + "' must be a string" : other.getValue());
      }
    }
  }

  @Test
  @DisplayName("an optional field absent or JSON null is absent: a title of a new conversation, its id")
  void optionalAbsent() {
    JsonObject body = new JsonObject().put(Keys.USER_ID, "u").putNull(Keys.TITLE);
    assertThat(ApiOps.CONVERSATION_CREATE.request().decode(body)).isEqualTo(new CreateConversation("u", null, null));
  }
}
