package io.quarry.storage;

import static org.assertj.core.api.Assertions.assertThat;

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
import io.quarry.bus.Bus;
import io.quarry.bus.Conversation;
import io.quarry.bus.Failure;
import io.quarry.bus.QueryResult;
import io.quarry.bus.Scopes.UserRef;
import io.quarry.bus.Source;
import io.quarry.bus.Tile;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Boards and tiles: a tile's own copy of its result, order, limits, and nobody else's board. */
class BoardStoreTest extends StorageTestBase {

  private Bus bus;
  private Conversation conversation;

  @BeforeEach
  void bus() {
    bus = new Bus(vertx);
    conversation = storage.createConversation(alice.id(), "Sales").await();
  }

  private Board board(String userId, String title) {
    return BoardOps.STORE_CREATE.call(bus, new NewBoard(userId, null, title)).await();
  }

  private QueryResult saved(int rows) {
    QueryResult result = result(conversation.id(), rows);
    JsonArray sources = Source.toJson(List.of(new Source("table1", "https://example.com/a.parquet", "\"v1\"", null,
        10L)));
    return storage.saveResult(alice.id(), new QueryResult(null, conversation.id(), "\n  SELECT n, label\nFROM t",
        result.columns(), result.rows(), rows, false, 5, null, null, sources)).await();
  }

  private Tile pin(Board board, QueryResult result, String title) {
    return BoardOps.STORE_PIN.call(bus, new PinTile(alice.id(), board.id(), null, result.id(), Tile.TABLE, null,
        title)).await();
  }

  private BoardRead read(String userId, Board board) {
    return BoardOps.STORE_GET.call(bus, new BoardRef(userId, board.id())).await();
  }

  @Test
  @DisplayName("a pinned result is copied into the tile (rows, columns, SQL, sources, when it ran) and outlives its"
      + " result and its conversation, which then leaves it unable to run (no conversation)")
  void pinCopies() throws Exception {
    Board board = board(alice.id(), "KPIs");
    QueryResult result = saved(3);
    JsonObject chart = new JsonObject().put("spec", new JsonObject().put("chart_type", "bar"));
    Tile tile = BoardOps.STORE_PIN.call(bus, new PinTile(alice.id(), board.id(), null, result.id(), Tile.CHART, chart,
        null)).await();
    assertThat(tile.title()).isEqualTo("SELECT n, label");
    assertThat(tile.kind()).isEqualTo(Tile.CHART);
    assertThat(tile.chart()).isEqualTo(chart);
    assertThat(tile.rows().toJsonArray()).isEqualTo(result.rowValues());
    assertThat(tile.columns()).isEqualTo(result.columns());
    assertThat(tile.sourceList()).isEqualTo(result.sourceList());
    assertThat(tile.ranAt()).isEqualTo(result.createdAt());
    assertThat(tile.conversationId()).isEqualTo(conversation.id());

    storage.deleteConversation(alice.id(), conversation.id()).await();
    BoardRead after = read(alice.id(), board);
    assertThat(after.board().tiles()).isEqualTo(1);
    assertThat(after.tiles().get(0).rows().toJsonArray()).isEqualTo(result.rowValues());
    assertThat(after.tiles().get(0).conversationId()).isNull();
  }

  @Test
  @DisplayName("a re-run's result replaces the tile's copy; a result of another conversation cannot")
  void fillReplaces() {
    Board board = board(alice.id(), "KPIs");
    Tile tile = pin(board, saved(2), "Two");
    QueryResult again = saved(5);
    Tile filled = BoardOps.STORE_FILL.call(bus, new FillTile(alice.id(), board.id(), tile.id(), again.id(), null))
        .await();
    assertThat(filled.totalRows()).isEqualTo(5);
    assertThat(filled.rows().toJsonArray()).isEqualTo(again.rowValues());
    assertThat(filled.title()).isEqualTo("Two");
    Conversation other = storage.createConversation(alice.id(), "Other").await();
    QueryResult elsewhere = storage.saveResult(alice.id(), result(other.id(), 1)).await();
    assertFails(BoardOps.STORE_FILL.call(bus, new FillTile(alice.id(), board.id(), tile.id(), elsewhere.id(), null)),
        Failure.NOT_FOUND, "Result not found");
  }

  @Test
  @DisplayName("tiles keep the order given; an order that misses or repeats a tile is refused and changes nothing;"
      + " a removed tile is gone")
  void reorderAndRemove() {
    Board board = board(alice.id(), "KPIs");
    Tile a = pin(board, saved(1), "A");
    Tile b = pin(board, saved(1), "B");
    Tile c = pin(board, saved(1), "C");
    BoardRead reordered = BoardOps.STORE_REORDER.call(bus, new ReorderTiles(alice.id(), board.id(),
        List.of(c.id(), a.id(), b.id()))).await();
    assertThat(reordered.tiles()).extracting(Tile::title).containsExactly("C", "A", "B");
    assertFails(BoardOps.STORE_REORDER.call(bus, new ReorderTiles(alice.id(), board.id(), List.of(c.id(), a.id()))),
        Failure.BAD_REQUEST, "Field 'tile_ids' must name every tile of the board once");
    assertFails(BoardOps.STORE_REORDER.call(bus, new ReorderTiles(alice.id(), board.id(),
        List.of(c.id(), a.id(), a.id()))), Failure.BAD_REQUEST, "Field 'tile_ids' must name every tile of the board once");
    assertThat(read(alice.id(), board).tiles()).extracting(Tile::title).containsExactly("C", "A", "B");
    BoardOps.STORE_REMOVE.call(bus, new TileRef(alice.id(), board.id(), a.id())).await();
    assertThat(read(alice.id(), board).tiles()).extracting(Tile::title).containsExactly("C", "B");
  }

  @Test
  @DisplayName("Bob cannot read, rename, delete, pin to, fill, reorder or remove from Alice's board, nor pin Alice's"
      + " result to his own: not found, and nothing changes")
  void anotherUsersBoard() {
    Board board = board(alice.id(), "KPIs");
    QueryResult result = saved(2);
    Tile tile = pin(board, result, "A");
    String b = board.id();
    assertFails(BoardOps.STORE_GET.call(bus, new BoardRef(bob.id(), b)), Failure.NOT_FOUND, BoardOps.BOARD_NOT_FOUND);
    assertFails(BoardOps.STORE_RENAME.call(bus, new RenameBoard(bob.id(), b, "Mine")), Failure.NOT_FOUND,
        BoardOps.BOARD_NOT_FOUND);
    assertFails(BoardOps.STORE_DELETE.call(bus, new BoardRef(bob.id(), b)), Failure.NOT_FOUND, BoardOps.BOARD_NOT_FOUND);
    assertFails(BoardOps.STORE_PIN.call(bus, new PinTile(bob.id(), b, null, result.id(), Tile.TABLE, null, null)),
        Failure.NOT_FOUND, BoardOps.BOARD_NOT_FOUND);
    assertFails(BoardOps.STORE_FILL.call(bus, new FillTile(bob.id(), b, tile.id(), result.id(), null)),
        Failure.NOT_FOUND, BoardOps.TILE_NOT_FOUND);
    assertFails(BoardOps.STORE_REORDER.call(bus, new ReorderTiles(bob.id(), b, List.of(tile.id()))),
        Failure.NOT_FOUND, BoardOps.BOARD_NOT_FOUND);
    assertFails(BoardOps.STORE_REMOVE.call(bus, new TileRef(bob.id(), b, tile.id())), Failure.NOT_FOUND,
        BoardOps.TILE_NOT_FOUND);
    Board bobs = board(bob.id(), "Bob's");
    assertFails(BoardOps.STORE_PIN.call(bus, new PinTile(bob.id(), bobs.id(), null, result.id(), Tile.TABLE, null,
        null)), Failure.NOT_FOUND, "Result not found");
    assertThat(BoardOps.STORE_LIST.call(bus, new UserRef(bob.id())).await()).extracting(Board::id)
        .containsExactly(bobs.id());
    BoardRead still = read(alice.id(), board);
    assertThat(still.board().title()).isEqualTo("KPIs");
    assertThat(still.tiles()).extracting(Tile::id).containsExactly(tile.id());
  }

  @Test
  @DisplayName("a user may have 50 boards and a board 24 tiles; one more of either is refused saying so; a second"
      + " delivery of a pin or a create makes nothing twice")
  void limits() {
    for (int i = 0; i < BoardOps.MAX_BOARDS - 1; i++) {
      board(alice.id(), "Board " + i);
    }
    Board last = board(alice.id(), "The 50th");
    assertFails(BoardOps.STORE_CREATE.call(bus, new NewBoard(alice.id(), null, "51st")), Failure.CONFLICT,
        BoardOps.TOO_MANY_BOARDS);
    assertThat(BoardOps.STORE_CREATE.call(bus, new NewBoard(alice.id(), last.id(), "The 50th")).await().id())
        .isEqualTo(last.id());
    QueryResult result = saved(1);
    for (int i = 0; i < BoardOps.MAX_TILES - 1; i++) {
      pin(last, result, "Tile " + i);
    }
    String id = UUID.randomUUID().toString();
    PinTile twentyFourth = new PinTile(alice.id(), last.id(), id, result.id(), Tile.TABLE, null, "24th");
    assertThat(BoardOps.STORE_PIN.call(bus, twentyFourth).await().position()).isEqualTo(BoardOps.MAX_TILES - 1);
    assertThat(BoardOps.STORE_PIN.call(bus, twentyFourth).await().id()).isEqualTo(id);
    assertFails(BoardOps.STORE_PIN.call(bus, new PinTile(alice.id(), last.id(), null, result.id(), Tile.TABLE, null,
        "25th")), Failure.CONFLICT, BoardOps.TOO_MANY_TILES);
    assertThat(read(alice.id(), last).board().tiles()).isEqualTo(BoardOps.MAX_TILES);
  }
}
