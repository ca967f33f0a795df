package io.quarry.client;

import io.quarry.bus.Board;
import io.quarry.bus.BoardOps;
import io.quarry.bus.BoardOps.BoardRead;
import io.quarry.bus.BoardOps.BoardRef;
import io.quarry.bus.BoardOps.NewBoard;
import io.quarry.bus.BoardOps.PinTile;
import io.quarry.bus.BoardOps.RenameBoard;
import io.quarry.bus.BoardOps.ReorderTiles;
import io.quarry.bus.BoardOps.Staleness;
import io.quarry.bus.BoardOps.TileRef;
import io.quarry.bus.BoardOps.TileRun;
import io.quarry.bus.Bus;
import io.quarry.bus.Scopes.UserRef;
import io.quarry.bus.Tile;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * A user's boards ({@code api.board.*}): grids of tiles, each a chart or a table pinned from a stored result with its
 * own copy of the rows, so that reading a board runs nothing; a tile runs again on demand. Another user's board or
 * tile is NOT_FOUND.
 */
public final class Boards {

  private final Bus bus;

  /** @param vertx joined to the cluster ({@link QuarryBus#join}) */
  public Boards(Vertx vertx) {
    this.bus = new Bus(vertx);
  }

  /** {@code title} null or blank: "New board". CONFLICT past {@value BoardOps#MAX_BOARDS} boards. */
  public Future<Board> create(String userId, String title) {
    return BoardOps.CREATE.call(bus, new NewBoard(userId, null, title));
  }

  /** Newest first. */
  public Future<List<Board>> list(String userId) {
    return BoardOps.LIST.call(bus, new UserRef(userId));
  }

  /** The board with its tiles and their stored copies. */
  public Future<BoardRead> get(String userId, String boardId) {
    return BoardOps.GET.call(bus, new BoardRef(userId, boardId));
  }

  public Future<Board> rename(String userId, String boardId, String title) {
    return BoardOps.RENAME.call(bus, new RenameBoard(userId, boardId, title));
  }

  public Future<Void> delete(String userId, String boardId) {
    return BoardOps.DELETE.call(bus, new BoardRef(userId, boardId));
  }

  /** A stored result's table as the board's last tile; {@code title} null: the SQL's first line. */
  public Future<Tile> pinTable(String userId, String boardId, String resultId, String title) {
    return BoardOps.PIN.call(bus, new PinTile(userId, boardId, null, resultId, Tile.TABLE, null, title));
  }

  /** A chart of a stored result ({@code spec} as {@code render_chart} takes it) as the board's last tile. */
  public Future<Tile> pinChart(String userId, String boardId, String resultId, JsonObject spec, String title) {
    return BoardOps.PIN.call(bus, new PinTile(userId, boardId, null, resultId, Tile.CHART, spec, title));
  }

  public Future<Void> unpin(String userId, String boardId, String tileId) {
    return BoardOps.UNPIN.call(bus, new TileRef(userId, boardId, tileId));
  }

  /** Every tile of the board, once, in the new order. */
  public Future<BoardRead> reorder(String userId, String boardId, List<String> tileIds) {
    return BoardOps.REORDER.call(bus, new ReorderTiles(userId, boardId, tileIds));
  }

  /** Runs the tile's SQL again and replaces its copy; fails as a query does, or CONFLICT when it cannot run again. */
  public Future<Tile> run(String userId, String boardId, String tileId) {
    return BoardOps.RUN.call(bus, new TileRef(userId, boardId, tileId));
  }

  public Future<List<TileRun>> runAll(String userId, String boardId) {
    return BoardOps.RUN_ALL.call(bus, new BoardRef(userId, boardId));
  }

  /** Which tiles read a version of a file that has since changed; runs no query. */
  public Future<List<Staleness>> stale(String userId, String boardId) {
    return BoardOps.STALE.call(bus, new BoardRef(userId, boardId));
  }
}
