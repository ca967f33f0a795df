package io.quarry.chat;

import io.quarry.bus.Board;
import io.quarry.bus.BoardOps;
import io.quarry.bus.BoardOps.BoardRead;
import io.quarry.bus.BoardOps.BoardRef;
import io.quarry.bus.BoardOps.FillTile;
import io.quarry.bus.BoardOps.NewBoard;
import io.quarry.bus.BoardOps.PinTile;
import io.quarry.bus.BoardOps.RenameBoard;
import io.quarry.bus.BoardOps.ReorderTiles;
import io.quarry.bus.BoardOps.Staleness;
import io.quarry.bus.BoardOps.TileRef;
import io.quarry.bus.BoardOps.TileRun;
import io.quarry.bus.Bus;
import io.quarry.bus.ChartData;
import io.quarry.bus.Dataset;
import io.quarry.bus.DatasetClient;
import io.quarry.bus.Failure;
import io.quarry.bus.QuarryException;
import io.quarry.bus.Schedule;
import io.quarry.bus.ScheduleOps;
import io.quarry.bus.ScheduleOps.ScheduleRef;
import io.quarry.bus.ScheduleRun;
import io.quarry.bus.Scopes.UserRef;
import io.quarry.bus.Source;
import io.quarry.bus.StorageClient;
import io.quarry.bus.Tile;
import io.quarry.bus.UrlSecrets;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * What a board does, for every door (the browser's {@code /api/boards}, the bus's {@code api.board.*}): the same
 * checks and messages. A board is read from its tiles' stored copies ({@link #read}, which a share view may call too);
 * only a re-run runs a tile's SQL, through the query path a conversation's query takes.
 */
final class Boards {

  static final String DEFAULT_TITLE = "New board";
  static final String CONVERSATION_GONE = "This tile's conversation was deleted: the tile keeps its data but cannot"
      + " run again";

  private final Bus bus;
  private final StorageClient storage;
  private final DatasetClient datasets;

  Boards(Bus bus, StorageClient storage, DatasetClient datasets) {
    this.bus = bus;
    this.storage = storage;
    this.datasets = datasets;
  }

  Future<Board> create(String userId, String id, String title) {
    String given = Bodies.atMost("title", title, BoardOps.MAX_TITLE);
    String chosen = given == null || given.isBlank() ? DEFAULT_TITLE : given.strip();
    return BoardOps.STORE_CREATE.call(bus, new NewBoard(userId, id, chosen));
  }

  Future<List<Board>> list(String userId) {
    return BoardOps.STORE_LIST.call(bus, new UserRef(userId));
  }

  /**
   * A board with its tiles and their stored copies, as its page or a share view shows it, each tile {@code stale} as
   * its conversation's datasets record their files now: runs nothing and asks no server ({@link #stale} asks).
   */
  Future<BoardRead> read(String userId, String boardId) {
    return stored(userId, boardId).compose(board -> datasets(userId, board, false)
        .compose(now -> schedules(userId, board).map(shown -> new BoardRead(board.board(), board.tiles().stream()
            .map(tile -> tile.withStale(staleness(tile, now.get(tile.conversationId())).stale())
                .withSchedule(shown.get(tile.id()))).toList()))));
  }

  /**
   * The schedule of each of the board's tiles that has one (a user has at most {@link ScheduleOps#MAX_PER_USER}), with
   * its last finished run, by tile id; storage's failure to say leaves the tiles as they are.
   */
  private Future<Map<String, JsonObject>> schedules(String userId, BoardRead board) {
    Set<String> tiles = board.tiles().stream().map(Tile::id).collect(Collectors.toSet());
    Map<String, JsonObject> shown = new ConcurrentHashMap<>();
    return ScheduleOps.LIST.call(bus, new UserRef(userId))
        .compose(all -> Future.join(all.stream()
            .filter(s -> Schedule.TILE.equals(s.targetKind()) && tiles.contains(s.targetId()))
            .map(s -> ScheduleOps.RUNS.call(bus, new ScheduleRef(userId, s.id()))
                .map(runs -> shown.put(s.targetId(), Tile.scheduleJson(s, runs.stream()
                    .filter(ScheduleRun::finished).findFirst().orElse(null)))))
            .toList()))
        .<Map<String, JsonObject>>map(v -> shown)
        .otherwise(e -> shown);
  }

  private Future<BoardRead> stored(String userId, String boardId) {
    return BoardOps.STORE_GET.call(bus, new BoardRef(userId, boardId));
  }

  Future<Board> rename(String userId, String boardId, String title) {
    String chosen = Bodies.required("title", title, BoardOps.MAX_TITLE).strip();
    return BoardOps.STORE_RENAME.call(bus, new RenameBoard(userId, boardId, chosen));
  }

  Future<Void> delete(String userId, String boardId) {
    return BoardOps.STORE_DELETE.call(bus, new BoardRef(userId, boardId));
  }

  /**
   * A stored result pinned as the board's last tile: storage copies its rows; a chart's spec is checked against the
   * result and what it draws computed once, now, so that opening the board later runs nothing.
   */
  Future<Tile> pin(PinTile request) {
    String kind = request.kind() == null ? Tile.TABLE : request.kind();
    if (!Tile.knownKind(kind)) {
      throw QuarryException.badRequest("Field 'kind' must be 'chart' or 'table'");
    }
    if (Tile.CHART.equals(kind) && request.chart() == null) {
      throw QuarryException.badRequest("Field 'chart' is required for a chart: its spec, as render_chart takes it");
    }
    String title = Bodies.atMost("title", request.title(), BoardOps.MAX_TITLE);
    return stored(request.userId(), request.boardId())
        .compose(board -> chart(request.userId(), kind, request.resultId(), request.chart()))
        .compose(chart -> BoardOps.STORE_PIN.call(bus, new PinTile(request.userId(), request.boardId(),
            request.tileId(), request.resultId(), kind, chart, title)));
  }

  /** What a chart tile draws of a result ({@link ChartData}, its spec as checked); null for a table. */
  private Future<JsonObject> chart(String userId, String kind, String resultId, JsonObject spec) {
    return Tile.CHART.equals(kind) ? datasets.chart(userId, resultId, spec, "").map(ChartData::toJson)
        : Future.succeededFuture(null);
  }

  Future<Void> unpin(String userId, String boardId, String tileId) {
    return BoardOps.STORE_REMOVE.call(bus, new TileRef(userId, boardId, tileId));
  }

  Future<BoardRead> reorder(String userId, String boardId, List<String> tileIds) {
    if (tileIds.size() > BoardOps.MAX_TILES) {
      throw QuarryException.badRequest("Field 'tile_ids' must name every tile of the board once");
    }
    return BoardOps.STORE_REORDER.call(bus, new ReorderTiles(userId, boardId, tileIds));
  }

  /**
   * The tile's SQL run again over its conversation's datasets, as the conversation's own queries run (same limits and
   * failures); its copy, sources and time replaced. When its conversation or a dataset it read is gone, CONFLICT
   * saying so, and the tile keeps its data.
   */
  Future<Tile> run(String userId, String boardId, String tileId) {
    return stored(userId, boardId).compose(board -> run(userId, tile(board, tileId)));
  }

  private Future<Tile> run(String userId, Tile tile) {
    return runnable(userId, tile)
        .compose(v -> datasets.query(userId, tile.conversationId(), tile.sql()))
        .compose(result -> chart(userId, tile.kind(), result.id(), tile.chart() == null ? null
                : ChartData.fromJson(tile.chart()).spec())
            .compose(chart -> BoardOps.STORE_FILL.call(bus, new FillTile(userId, tile.boardId(), tile.id(),
                result.id(), chart))));
  }

  /** Every tile run again, one after another (a board is a handful of queries, not a load): each one's outcome. */
  Future<List<TileRun>> runAll(String userId, String boardId) {
    return stored(userId, boardId).compose(board -> {
      List<TileRun> runs = new ArrayList<>();
      Future<Void> done = Future.succeededFuture();
      for (Tile tile : board.tiles()) {
        done = done.compose(v -> run(userId, tile)
            .map(ran -> new TileRun(tile.id(), true, null, ran))
            .otherwise(e -> new TileRun(tile.id(), false, Failure.messageOf(e), tile))
            .map(outcome -> {
              runs.add(outcome);
              return null;
            }));
      }
      return done.map(v -> runs);
    });
  }

  /**
   * Each tile's files asked for newer versions, as opening a conversation asks (at most once a dataset per
   * {@code dataset.versionCheckIntervalMs}): a tile is stale when a file it read has moved on. Runs no query.
   */
  Future<List<Staleness>> stale(String userId, String boardId) {
    return stored(userId, boardId).compose(board -> datasets(userId, board, true)
        .map(now -> board.tiles().stream().map(tile -> staleness(tile, now.get(tile.conversationId()))).toList()));
  }

  /**
   * The datasets of each conversation the board's tiles read, as recorded now; with {@code ask}, after their servers
   * were asked for newer versions. A conversation that cannot be read maps to a failed future.
   */
  private Future<Map<String, Future<List<Dataset>>>> datasets(String userId, BoardRead board, boolean ask) {
    Map<String, Future<List<Dataset>>> current = new HashMap<>();
    board.tiles().stream().map(Tile::conversationId).filter(Objects::nonNull).distinct()
        .forEach(id -> current.put(id, (ask ? datasets.checkVersions(userId, id).<Void>mapEmpty().otherwiseEmpty()
            : Future.<Void>succeededFuture()).compose(checked -> storage.datasets(userId, id))));
    return Future.join(new ArrayList<>(current.values())).otherwiseEmpty().map(v -> current);
  }

  private static Staleness staleness(Tile tile, Future<List<Dataset>> datasets) {
    if (tile.conversationId() == null) {
      return new Staleness(tile.id(), false, CONVERSATION_GONE);
    }
    if (datasets == null || datasets.failed()) {
      return new Staleness(tile.id(), false, null); // not known now: the tile stands as it is
    }
    List<Dataset> now = datasets.result();
    String missing = missing(tile, now);
    boolean stale = tile.sourceList().stream().anyMatch(s -> now.stream()
        .anyMatch(d -> sameFile(s, d) && Dataset.READY.equals(d.status()) && moved(s, d)));
    return new Staleness(tile.id(), stale, missing == null ? null : gone(missing));
  }

  /** Completes when every dataset the tile read is still in its conversation; else CONFLICT saying which is not. */
  private Future<Void> runnable(String userId, Tile tile) {
    if (tile.conversationId() == null) {
      return Future.failedFuture(QuarryException.conflict(CONVERSATION_GONE));
    }
    return storage.datasets(userId, tile.conversationId())
        .recover(e -> Future.failedFuture(Failure.classify(e) == Failure.NOT_FOUND
            ? QuarryException.conflict(CONVERSATION_GONE) : e))
        .compose(now -> {
          String missing = missing(tile, now);
          return missing == null ? Future.succeededFuture() : Future.failedFuture(QuarryException.conflict(gone(missing)));
        });
  }

  private static String gone(String table) {
    return "The dataset " + table + " was removed from this tile's conversation: the tile keeps its data but cannot"
        + " run again";
  }

  /** The table of a file the tile read that its conversation no longer has, or null. */
  private static String missing(Tile tile, List<Dataset> now) {
    return tile.sourceList().stream().filter(s -> now.stream().noneMatch(d -> sameFile(s, d))).map(Source::table)
        .findFirst().orElse(null);
  }

  private static boolean sameFile(Source source, Dataset dataset) {
    return dataset.name().equals(source.table())
        && UrlSecrets.shown(dataset.url()).equals(UrlSecrets.shown(source.url()));
  }

  /** As the page's "data changed" notice judges it: by ETag when both have one, else by size. */
  private static boolean moved(Source source, Dataset dataset) {
    if (source.etag() != null && dataset.etag() != null) {
      return !source.etag().equals(dataset.etag());
    }
    return source.size() != null && dataset.fileSize() != null && !source.size().equals(dataset.fileSize());
  }

  private static Tile tile(BoardRead board, String tileId) {
    return board.tiles().stream().filter(t -> t.id().equals(tileId)).findFirst()
        .orElseThrow(() -> QuarryException.notFound(BoardOps.TILE_NOT_FOUND));
  }
}
