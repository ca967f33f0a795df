package io.quarry.storage;

import static io.quarry.bus.BoardOps.BOARD_NOT_FOUND;
import static io.quarry.bus.BoardOps.TILE_NOT_FOUND;

import io.quarry.bus.Board;
import io.quarry.bus.BoardOps;
import io.quarry.bus.BoardOps.BoardRead;
import io.quarry.bus.BoardOps.BoardRef;
import io.quarry.bus.BoardOps.FillTile;
import io.quarry.bus.BoardOps.NewBoard;
import io.quarry.bus.BoardOps.PinTile;
import io.quarry.bus.BoardOps.RenameBoard;
import io.quarry.bus.BoardOps.ReorderTiles;
import io.quarry.bus.BoardOps.TileRef;
import io.quarry.bus.QuarryException;
import io.quarry.bus.RowsJson;
import io.quarry.bus.Scopes.UserRef;
import io.quarry.bus.Schedule;
import io.quarry.bus.Tile;
import io.quarry.bus.Timestamps;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import java.util.HashSet;
import java.util.List;

/**
 * Boards and their tiles, always looked up by id and owner together: another user's board or tile is simply not
 * found. A tile's copy of its result is taken here, from the stored result, so that no caller ever sends rows.
 */
final class BoardStore {

  private static final String BOARD = "b.id, b.title, b.created_at, b.updated_at,"
      + " (SELECT count(*) FROM tiles t WHERE t.board_id = b.id) AS tiles";
  private static final String TILE = "id, board_id, position, title, kind, chart_json, sql, conversation_id, sources,"
      + " columns_json, rows_json, total_rows, truncated, ran_at";
  /** Where a tile copies a stored result of the user's from. */
  private static final String RESULT = " FROM query_results r JOIN conversations c ON c.id = r.conversation_id"
      + " WHERE r.id = ? AND c.user_id = ?";
  /** A tile's copy of a result, in the order {@link #COPY} reads them from one. */
  private static final String COPIED = "sql, conversation_id, sources, columns_json, rows_json, total_rows, truncated,"
      + " ran_at";
  private static final String COPY = "r.sql, r.conversation_id, r.sources, r.columns_json, r.rows_json, r.total_rows,"
      + " r.truncated, r.created_at";

  private final Db db;

  BoardStore(Db db) {
    this.db = db;
  }

  /** A second delivery (the id its caller chose) answers the board made; past {@link BoardOps#MAX_BOARDS}, CONFLICT. */
  Future<Board> create(NewBoard request) {
    String id = Db.idOr(request.id());
    String now = Timestamps.now();
    return db.tx(conn -> db.one(conn, "User not found", "SELECT id FROM users WHERE id = ? FOR UPDATE",
            request.userId())
        .compose(user -> db.exists(conn, "SELECT 1 FROM boards WHERE id = ? AND user_id = ?", id, request.userId()))
        .compose(made -> made ? Future.succeededFuture() : db.one(conn, "", "SELECT count(*) FROM boards WHERE"
                + " user_id = ?", request.userId())
            .compose(count -> count.getLong(0) >= BoardOps.MAX_BOARDS
                ? Future.failedFuture(QuarryException.conflict(BoardOps.TOO_MANY_BOARDS))
                : db.run(conn, "INSERT INTO boards (id, user_id, title, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
                    id, request.userId(), request.title(), now, now).mapEmpty()))
        .compose(v -> board(conn, id, request.userId())));
  }

  /** Newest first. */
  Future<List<Board>> list(UserRef ref) {
    return db.run("SELECT " + BOARD + " FROM boards b WHERE b.user_id = ? ORDER BY b.updated_at DESC, b.id",
        ref.userId()).map(rows -> Db.each(rows, BoardStore::board));
  }

  Future<BoardRead> get(BoardRef ref) {
    return read(db.pool(), ref.boardId(), ref.userId());
  }

  Future<Board> rename(RenameBoard request) {
    return Db.changed(db.run("UPDATE boards SET title = ?, updated_at = ? WHERE id = ? AND user_id = ?",
            request.title(), Timestamps.now(), request.boardId(), request.userId()), BOARD_NOT_FOUND)
        .compose(v -> board(db.pool(), request.boardId(), request.userId()));
  }

  /** With its tiles, their schedules and its share links. */
  Future<Void> delete(BoardRef ref) {
    // Its share links go with it (shares.board_id has no foreign key): a board made later never opens by an old link.
    return db.tx(conn -> db.run(conn, "DELETE FROM schedules WHERE user_id = ? AND target_kind = '" + Schedule.TILE
            + "' AND target_id IN (SELECT id FROM tiles WHERE board_id = ? AND user_id = ?)", ref.userId(),
            ref.boardId(), ref.userId())
        .compose(v -> Db.changed(db.run(conn, "DELETE FROM boards WHERE id = ? AND user_id = ?", ref.boardId(),
            ref.userId()), BOARD_NOT_FOUND))
        .compose(v -> db.run(conn, "DELETE FROM shares WHERE board_id = ? AND user_id = ?", ref.boardId(),
            ref.userId()))
        .mapEmpty());
  }

  /**
   * The user's stored result copied into a new last tile, titled as asked or by its SQL's first line. A second
   * delivery (the tile id its caller chose) answers the tile made; past {@link BoardOps#MAX_TILES}, CONFLICT.
   */
  Future<Tile> pin(PinTile request) {
    String tileId = Db.idOr(request.tileId());
    String userId = request.userId();
    return db.tx(conn -> lockBoard(conn, request.boardId(), userId)
        .compose(board -> db.exists(conn, "SELECT 1 FROM tiles WHERE id = ? AND board_id = ?", tileId,
            request.boardId()))
        .compose(made -> made ? Future.succeededFuture() : db.one(conn, "", "SELECT count(*) FROM tiles WHERE"
                + " board_id = ?", request.boardId())
            .compose(count -> count.getLong(0) >= BoardOps.MAX_TILES
                ? Future.failedFuture(QuarryException.conflict(BoardOps.TOO_MANY_TILES))
                : db.one(conn, "Result not found", "SELECT r.sql" + RESULT, request.resultId(), userId))
            .compose(result -> insert(conn, tileId, request, result.getString(0))))
        .compose(v -> tile(conn, tileId, request.boardId(), userId)));
  }

  /** The copy is made by the database, from the stored result: its rows never pass through here. */
  private Future<Void> insert(SqlClient conn, String tileId, PinTile request, String sql) {
    String now = Timestamps.now();
    String title = request.title() == null || request.title().isBlank() ? firstLine(sql) : request.title().strip();
    // Typed, as PostgreSQL cannot infer a SELECT list's parameter types from the columns they fill.
    return db.run(conn, "INSERT INTO tiles (id, board_id, user_id, position, title, kind, chart_json, created_at, "
            + COPIED + ") SELECT CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), (SELECT coalesce(max(position) + 1, 0)"
            + " FROM tiles WHERE board_id = ?), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), "
            + COPY + RESULT, tileId, request.boardId(), request.userId(), request.boardId(), title, request.kind(),
            text(request.chart()), now, request.resultId(), request.userId())
        .compose(v -> touch(conn, request.boardId(), now));
  }

  /** The SQL's first line that says something, at most {@link BoardOps#MAX_TITLE} characters. */
  static String firstLine(String sql) {
    String line = (sql == null ? "" : sql).strip().lines().map(String::strip).filter(l -> !l.isEmpty())
        .findFirst().orElse("Query");
    return line.length() > BoardOps.MAX_TITLE ? line.substring(0, BoardOps.MAX_TITLE - 1) + "…" : line;
  }

  /**
   * The tile's copy replaced by a stored result of the same conversation (its re-run's), by the database. Without a
   * board (a scheduled run knows its tile alone), the tile's own; without a chart, the tile's drawing is kept.
   */
  Future<Tile> fill(FillTile request) {
    String userId = request.userId();
    String tileId = request.tileId();
    return db.tx(conn -> db.one(conn, TILE_NOT_FOUND, "SELECT conversation_id, board_id FROM tiles WHERE id = ?"
            + " AND board_id = coalesce(CAST(? AS TEXT), board_id) AND user_id = ? FOR UPDATE", tileId,
            request.boardId(), userId)
        .compose(tile -> db.one(conn, "Result not found", "SELECT r.id" + RESULT + " AND r.conversation_id = ?",
                request.resultId(), userId, tile.getString(0) == null ? "" : tile.getString(0))
            .compose(result -> db.run(conn, "UPDATE tiles SET (" + COPIED + ") = (SELECT " + COPY
                + " FROM query_results r WHERE r.id = ?), chart_json = coalesce(CAST(? AS TEXT), chart_json)"
                + " WHERE id = ?", request.resultId(), text(request.chart()), tileId))
            .compose(v -> touch(conn, tile.getString(1), Timestamps.now()))
            .compose(v -> tile(conn, tileId, tile.getString(1), userId))));
  }

  /** With its schedules. */
  Future<Void> remove(TileRef ref) {
    return db.tx(conn -> Db.changed(db.run(conn, "DELETE FROM tiles WHERE id = ? AND board_id = ? AND user_id = ?",
            ref.tileId(), ref.boardId(), ref.userId()), TILE_NOT_FOUND)
        .compose(v -> db.run(conn, "DELETE FROM schedules WHERE user_id = ? AND target_kind = '" + Schedule.TILE
            + "' AND target_id = ?", ref.userId(), ref.tileId()).mapEmpty()));
  }

  /** Every tile of the board, each once, in its new order; anything else is BAD_REQUEST and changes nothing. */
  Future<BoardRead> reorder(ReorderTiles request) {
    List<String> order = request.tileIds();
    return db.tx(conn -> lockBoard(conn, request.boardId(), request.userId())
        .compose(board -> db.run(conn, "SELECT id FROM tiles WHERE board_id = ?", request.boardId()))
        .compose(rows -> {
          List<String> held = Db.each(rows, row -> row.getString(0));
          if (order.size() != held.size() || !new HashSet<>(order).equals(new HashSet<>(held))) {
            return Future.failedFuture(QuarryException.badRequest(
                "Field 'tile_ids' must name every tile of the board once"));
          }
          Future<Void> done = Future.succeededFuture();
          for (int i = 0; i < order.size(); i++) {
            long position = i;
            String id = order.get(i);
            done = done.compose(v -> db.run(conn, "UPDATE tiles SET position = ? WHERE id = ?", position, id)
                .mapEmpty());
          }
          return done;
        })
        .compose(v -> read(conn, request.boardId(), request.userId())));
  }

  private Future<Row> lockBoard(SqlClient conn, String boardId, String userId) {
    return db.one(conn, BOARD_NOT_FOUND, "SELECT id FROM boards WHERE id = ? AND user_id = ? FOR UPDATE", boardId,
        userId);
  }

  private Future<Void> touch(SqlClient conn, String boardId, String now) {
    return db.run(conn, "UPDATE boards SET updated_at = ? WHERE id = ?", now, boardId).mapEmpty();
  }

  private Future<BoardRead> read(SqlClient conn, String boardId, String userId) {
    return board(conn, boardId, userId).compose(board -> db.run(conn, "SELECT " + TILE + " FROM tiles"
            + " WHERE board_id = ? ORDER BY position, created_at, id", boardId)
        .map(rows -> new BoardRead(board, Db.each(rows, BoardStore::tile))));
  }

  private Future<Board> board(SqlClient conn, String boardId, String userId) {
    return db.one(conn, BOARD_NOT_FOUND, "SELECT " + BOARD + " FROM boards b WHERE b.id = ? AND b.user_id = ?",
        boardId, userId).map(BoardStore::board);
  }

  private Future<Tile> tile(SqlClient conn, String tileId, String boardId, String userId) {
    return db.one(conn, TILE_NOT_FOUND, "SELECT " + TILE + " FROM tiles WHERE id = ? AND board_id = ? AND user_id = ?",
        tileId, boardId, userId).map(BoardStore::tile);
  }

  /** A row of {@link #BOARD}, by position. */
  private static Board board(Row row) {
    return new Board(row.getString(0), row.getString(1), row.getLong(4).intValue(), row.getString(2),
        row.getString(3));
  }

  /** A row of {@link #TILE}, by position. */
  private static Tile tile(Row row) {
    String chart = row.getString(5);
    String sources = row.getString(8);
    String columns = row.getString(9);
    return new Tile(row.getString(0), row.getString(1), row.getLong(2).intValue(), row.getString(3), row.getString(4),
        chart == null ? null : new JsonObject(chart), row.getString(6), row.getString(7),
        sources == null ? new JsonArray() : new JsonArray(sources), columns == null ? new JsonArray()
            : new JsonArray(columns), RowsJson.text(row.getString(10)), row.getLong(11), row.getLong(12) != 0,
        row.getString(13), null, null);
  }

  private static String text(JsonObject json) {
    return json == null ? null : json.encode();
  }
}
