package io.quarry.bus;

import static io.quarry.bus.Addresses.*;
import static io.quarry.bus.Fields.optional;
import static io.quarry.bus.Fields.text;

import io.quarry.bus.Scopes.UserRef;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * Boards ({@link Board}) and their tiles ({@link Tile}): storage's operations, and the public ones ({@code api.board.*},
 * in {@link ApiOps#ALL}) that the browser's {@code /api/boards} mirrors with the same checks. Another user's board or
 * tile is NOT_FOUND, never revealed to exist.
 */
public final class BoardOps {

  private BoardOps() {
  }

  /** Boards one user may have. */
  public static final int MAX_BOARDS = 50;
  /** Tiles one board may have. */
  public static final int MAX_TILES = 24;
  /** Longest board or tile title. */
  public static final int MAX_TITLE = 200;
  public static final String TOO_MANY_BOARDS = "Maximum " + MAX_BOARDS + " boards reached: delete one to make another";
  public static final String TOO_MANY_TILES = "Maximum " + MAX_TILES + " tiles on a board reached: remove one to pin"
      + " another";
  public static final String BOARD_NOT_FOUND = "Board not found";
  public static final String TILE_NOT_FOUND = "Tile not found";

  // Requests and replies

  /** {@code id}: chosen by the caller, so that a second delivery finds the board made. */
  public record NewBoard(String userId, String id, String title) {
    static final Codec<NewBoard> CODEC = Codec.json(
        r -> new JsonObject().put(Keys.USER_ID, r.userId).put(Keys.ID, r.id).put(Keys.TITLE, r.title),
        json -> new NewBoard(text(json, Keys.USER_ID), optional(json, Keys.ID), optional(json, Keys.TITLE)));
  }

  public record BoardRef(String userId, String boardId) {
    static final Codec<BoardRef> CODEC = Codec.json(BoardRef::toJson,
        json -> new BoardRef(text(json, Keys.USER_ID), text(json, Keys.BOARD_ID)));

    JsonObject toJson() {
      return new JsonObject().put(Keys.USER_ID, userId).put(Keys.BOARD_ID, boardId);
    }
  }

  public record RenameBoard(String userId, String boardId, String title) {
    static final Codec<RenameBoard> CODEC = Codec.json(
        r -> new BoardRef(r.userId, r.boardId).toJson().put(Keys.TITLE, r.title),
        json -> new RenameBoard(text(json, Keys.USER_ID), text(json, Keys.BOARD_ID), optional(json, Keys.TITLE)));
  }

  public record TileRef(String userId, String boardId, String tileId) {
    static final Codec<TileRef> CODEC = Codec.json(
        r -> new BoardRef(r.userId, r.boardId).toJson().put(Keys.TILE_ID, r.tileId),
        json -> new TileRef(text(json, Keys.USER_ID), text(json, Keys.BOARD_ID), text(json, Keys.TILE_ID)));

    public BoardRef board() {
      return new BoardRef(userId, boardId);
    }
  }

  /**
   * A result pinned as a tile: the result's rows, SQL and sources are copied from storage, never sent. {@code kind}
   * {@link Tile#CHART} or {@link Tile#TABLE} (optional: a table); {@code chart}: for a chart, its spec (as {@code render_chart} takes it)
   * from the public operation, what it draws ({@link ChartData}) on to storage; {@code title} optional (the SQL's
   * first line when absent); {@code tileId} optional, chosen by the caller so that a second delivery finds the tile.
   */
  public record PinTile(String userId, String boardId, String tileId, String resultId, String kind, JsonObject chart,
      String title) {
    static final Codec<PinTile> CODEC = Codec.json(
        r -> new BoardRef(r.userId, r.boardId).toJson().put(Keys.TILE_ID, r.tileId).put(Keys.RESULT_ID, r.resultId)
            .put("kind", r.kind).put("chart", r.chart).put(Keys.TITLE, r.title),
        json -> new PinTile(text(json, Keys.USER_ID), text(json, Keys.BOARD_ID), optional(json, Keys.TILE_ID),
            text(json, Keys.RESULT_ID), optional(json, "kind"), object(json, "chart"), optional(json, Keys.TITLE)));
  }

  /**
   * A tile's copy replaced by a stored result's (its re-run), and what its chart draws now (null for a table, or to
   * keep it); {@code boardId} null: wherever the user's tile is (a scheduled run names its tile alone).
   */
  public record FillTile(String userId, String boardId, String tileId, String resultId, JsonObject chart) {
    static final Codec<FillTile> CODEC = Codec.json(
        r -> new TileRef(r.userId, r.boardId, r.tileId).board().toJson().put(Keys.TILE_ID, r.tileId)
            .put(Keys.RESULT_ID, r.resultId).put("chart", r.chart),
        json -> new FillTile(text(json, Keys.USER_ID), optional(json, Keys.BOARD_ID), text(json, Keys.TILE_ID),
            text(json, Keys.RESULT_ID), object(json, "chart")));
  }

  /** The board's tiles in their new order: every tile of the board, each once. */
  public record ReorderTiles(String userId, String boardId, List<String> tileIds) {
    static final Codec<ReorderTiles> CODEC = Codec.json(
        r -> new BoardRef(r.userId, r.boardId).toJson().put("tile_ids", new JsonArray(List.copyOf(r.tileIds))),
        json -> new ReorderTiles(text(json, Keys.USER_ID), text(json, Keys.BOARD_ID), ids(json)));
  }

  /** A board with its tiles, in order, each with its stored copy: what its page draws, without running anything. */
  public record BoardRead(Board board, List<Tile> tiles) {
    public static final Codec<BoardRead> CODEC = Codec.json(BoardRead::toJson, BoardRead::fromJson);

    public JsonObject toJson() {
      return new JsonObject().put("board", board.toJson())
          .put("tiles", new JsonArray(tiles.stream().map(Tile::toJson).toList()));
    }

    public static BoardRead fromJson(JsonObject json) {
      return new BoardRead(Board.fromJson(json.getJsonObject("board", new JsonObject())),
          json.getJsonArray("tiles", new JsonArray()).stream().map(t -> Tile.fromJson((JsonObject) t)).toList());
    }
  }

  /** What one tile's re-run came to: the tile as it is now, and why it did not run ({@code error}) when it did not. */
  public record TileRun(String tileId, boolean ok, String error, Tile tile) {
    static final Codec<TileRun> CODEC = Codec.json(TileRun::toJson, TileRun::fromJson);

    public JsonObject toJson() {
      return new JsonObject().put(Keys.TILE_ID, tileId).put("ok", ok).put("error", error)
          .put("tile", tile == null ? null : tile.toJson());
    }

    public static TileRun fromJson(JsonObject json) {
      JsonObject tile = json.getJsonObject("tile");
      return new TileRun(json.getString(Keys.TILE_ID), json.getBoolean("ok", false), json.getString("error"),
          tile == null ? null : Tile.fromJson(tile));
    }
  }

  /**
   * Whether a tile read a version of a file that its conversation's dataset has moved on from ({@code stale}), found
   * without running any query; {@code reason}: why it cannot run again (its conversation or a dataset is gone), or
   * null.
   */
  public record Staleness(String tileId, boolean stale, String reason) {
    static final Codec<Staleness> CODEC = Codec.json(Staleness::toJson,
        json -> new Staleness(json.getString(Keys.TILE_ID), json.getBoolean("stale", false),
            json.getString("reason")));

    public JsonObject toJson() {
      return new JsonObject().put(Keys.TILE_ID, tileId).put("stale", stale).put("reason", reason);
    }
  }

  private static JsonObject object(JsonObject json, String key) {
    Object value = json.getValue(key);
    if (value != null && !(value instanceof JsonObject)) {
      throw QuarryException.badRequest("Field '" + key + "' must be an object");
    }
    return (JsonObject) value;
  }

  private static List<String> ids(JsonObject json) {
    Object value = json.getValue("tile_ids");
    if (!(value instanceof JsonArray array) || !array.stream().allMatch(String.class::isInstance)) {
      throw QuarryException.badRequest("Field 'tile_ids' must be an array of tile ids");
    }
    return array.stream().map(String.class::cast).toList();
  }

  static final Codec<Board> BOARD = Codec.json(Board::toJson, Board::fromJson);
  static final Codec<Tile> TILE = Codec.json(Tile::toJson, Tile::fromJson);

  // Storage's operations (internal)

  /** CONFLICT {@link #TOO_MANY_BOARDS}; a second delivery answers the board made. */
  public static final Operation<NewBoard, Board> STORE_CREATE = storage(STORAGE_BOARD_CREATE, NewBoard.CODEC, BOARD);
  /** Newest first. */
  public static final Operation<UserRef, List<Board>> STORE_LIST = storage(STORAGE_BOARD_LIST, UserRef.CODEC,
      Codec.items(BOARD));
  public static final Operation<BoardRef, BoardRead> STORE_GET = storage(STORAGE_BOARD_GET, BoardRef.CODEC,
      BoardRead.CODEC);
  public static final Operation<RenameBoard, Board> STORE_RENAME = storage(STORAGE_BOARD_RENAME, RenameBoard.CODEC,
      BOARD);
  /** With its tiles; NOT_FOUND also after a delivery that did it. */
  public static final Operation<BoardRef, Void> STORE_DELETE = Operation.of(STORAGE_BOARD_DELETE, BoardRef.CODEC,
      Codec.NONE, Deliveries.STORAGE_TIMEOUT_MS, Resend.REMOVAL);
  /** Copies the user's stored result into a new last tile. NOT_FOUND "Result not found"; CONFLICT {@link #TOO_MANY_TILES}. */
  public static final Operation<PinTile, Tile> STORE_PIN = storage(STORAGE_TILE_PIN, PinTile.CODEC, TILE);
  /** Replaces a tile's copy with a stored result's: its rows, sources, SQL and when it ran. */
  public static final Operation<FillTile, Tile> STORE_FILL = storage(STORAGE_TILE_FILL, FillTile.CODEC, TILE);
  public static final Operation<TileRef, Void> STORE_REMOVE = Operation.of(STORAGE_TILE_REMOVE, TileRef.CODEC,
      Codec.NONE, Deliveries.STORAGE_TIMEOUT_MS, Resend.REMOVAL);
  /** BAD_REQUEST unless the order names every tile of the board once. */
  public static final Operation<ReorderTiles, BoardRead> STORE_REORDER = storage(STORAGE_TILE_REORDER,
      ReorderTiles.CODEC, BoardRead.CODEC);

  // The public operations (api.board.*)

  /** A new board; {@code title} optional ("New board"). BAD_REQUEST (title too long), CONFLICT {@link #TOO_MANY_BOARDS}. */
  public static final Operation<NewBoard, Board> CREATE = api(API_BOARD_CREATE, NewBoard.CODEC, BOARD);
  /** The user's boards, newest first. */
  public static final Operation<UserRef, List<Board>> LIST = api(API_BOARD_LIST, UserRef.CODEC, Codec.items(BOARD));
  /**
   * A board with its tiles and their stored copies, each tile {@code stale} as its conversation's datasets record their
   * files now; runs nothing and asks no server ({@link #STALE} asks). NOT_FOUND.
   */
  public static final Operation<BoardRef, BoardRead> GET = api(API_BOARD_GET, BoardRef.CODEC, BoardRead.CODEC);
  /** BAD_REQUEST (title missing or too long); NOT_FOUND. */
  public static final Operation<RenameBoard, Board> RENAME = api(API_BOARD_RENAME, RenameBoard.CODEC, BOARD);
  /** Deletes it with its tiles (their results and conversations stay). NOT_FOUND. */
  public static final Operation<BoardRef, Void> DELETE = Operation.of(API_BOARD_DELETE, BoardRef.CODEC, Codec.NONE,
      ApiOps.WAIT_MS, Resend.REMOVAL);
  /**
   * Pins a stored result as the board's last tile, copying its rows and sources. BAD_REQUEST (kind, a chart without its
   * spec or with an invalid one), NOT_FOUND (board or result), CONFLICT {@link #TOO_MANY_TILES}.
   */
  public static final Operation<PinTile, Tile> PIN = Operation.of(API_BOARD_PIN, PinTile.CODEC, TILE,
      ApiOps.QUERY_WAIT_MS, Resend.NOT_ON_TIMEOUT);
  /** Removes a tile. NOT_FOUND. */
  public static final Operation<TileRef, Void> UNPIN = Operation.of(API_BOARD_UNPIN, TileRef.CODEC, Codec.NONE,
      ApiOps.WAIT_MS, Resend.REMOVAL);
  /** The board with its tiles in the order given (every tile once). BAD_REQUEST, NOT_FOUND. */
  public static final Operation<ReorderTiles, BoardRead> REORDER = api(API_BOARD_REORDER, ReorderTiles.CODEC,
      BoardRead.CODEC);
  /**
   * Runs a tile's SQL again over its conversation's datasets, as a query of the conversation runs (same limits and
   * failures), and replaces its copy. CONFLICT when its conversation or one of its datasets is gone (the tile keeps
   * its data); NOT_FOUND; and what a query fails with.
   */
  public static final Operation<TileRef, Tile> RUN = Operation.of(API_BOARD_RUN, TileRef.CODEC, TILE,
      ApiOps.QUERY_WAIT_MS, Resend.NOT_ON_TIMEOUT);
  /** Runs every tile again, one after another: each tile's outcome, in the board's order. NOT_FOUND. */
  public static final Operation<BoardRef, List<TileRun>> RUN_ALL = Operation.of(API_BOARD_RUN_ALL, BoardRef.CODEC,
      Codec.items(TileRun.CODEC), ApiOps.QUERY_WAIT_MS * 2, Resend.NEVER);
  /**
   * Asks the servers of the tiles' files whether they have newer versions (as opening a conversation does), running
   * no query: each tile's {@link Staleness}. NOT_FOUND.
   */
  public static final Operation<BoardRef, List<Staleness>> STALE = api(API_BOARD_STALE, BoardRef.CODEC,
      Codec.items(Staleness.CODEC));

  static final List<Operation<?, ?>> ALL = List.of(CREATE, LIST, GET, RENAME, DELETE, PIN, UNPIN, REORDER, RUN,
      RUN_ALL, STALE);

  private static <Q, R> Operation<Q, R> storage(String address, Codec<Q> request, Codec<R> reply) {
    return Operation.of(address, request, reply, Deliveries.STORAGE_TIMEOUT_MS, Resend.IDEMPOTENT);
  }

  private static <Q, R> Operation<Q, R> api(String address, Codec<Q> request, Codec<R> reply) {
    return Operation.of(address, request, reply, ApiOps.WAIT_MS, Resend.IDEMPOTENT);
  }
}
