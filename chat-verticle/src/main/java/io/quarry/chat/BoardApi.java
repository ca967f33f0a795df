package io.quarry.chat;

import io.quarry.bus.Board;
import io.quarry.bus.BoardOps;
import io.quarry.bus.BoardOps.BoardRead;
import io.quarry.bus.BoardOps.PinTile;
import io.quarry.bus.BoardOps.Staleness;
import io.quarry.bus.BoardOps.TileRun;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.List;

/**
 * {@code /api/boards}: the user's boards and their tiles ({@link Boards}), as the bus's {@code api.board.*} serve them.
 * Reading a board, and asking whether its tiles are stale, run no query; a re-run does.
 */
final class BoardApi {

  private static final String BOARD = "/api/boards/:bid";
  private static final String TILE = BOARD + "/tiles/:tid";

  private final Boards boards;

  BoardApi(Boards boards) {
    this.boards = boards;
  }

  void mount(Router router) {
    router.get("/api/boards").handler(this::list);
    router.post("/api/boards").handler(this::create);
    router.get(BOARD).handler(this::get);
    router.patch(BOARD).handler(this::rename);
    router.delete(BOARD).handler(this::delete);
    router.post(BOARD + "/tiles").handler(this::pin);
    router.put(BOARD + "/order").handler(this::reorder);
    router.post(BOARD + "/run").handler(this::runAll);
    router.get(BOARD + "/stale").handler(this::stale);
    router.delete(TILE).handler(this::unpin);
    router.post(TILE + "/run").handler(this::run);
    Routes.allowOnly(router, "/api/boards", HttpMethod.GET, HttpMethod.POST);
    Routes.allowOnly(router, BOARD, HttpMethod.GET, HttpMethod.PATCH, HttpMethod.DELETE);
    Routes.allowOnly(router, BOARD + "/tiles", HttpMethod.POST);
    Routes.allowOnly(router, BOARD + "/order", HttpMethod.PUT);
    Routes.allowOnly(router, BOARD + "/run", HttpMethod.POST);
    Routes.allowOnly(router, BOARD + "/stale", HttpMethod.GET);
    Routes.allowOnly(router, TILE, HttpMethod.DELETE);
    Routes.allowOnly(router, TILE + "/run", HttpMethod.POST);
  }

  private void list(RoutingContext ctx) {
    Replies.send(ctx, 200, boards.list(userId(ctx)).map(list -> new JsonObject().put("boards",
        new JsonArray(list.stream().map(Board::toJson).toList()))));
  }

  /** {@code {title?}} → 201 the board. */
  private void create(RoutingContext ctx) {
    JsonObject body = Bodies.object(ctx);
    Replies.send(ctx, 201, boards.create(userId(ctx), null, Bodies.optionalString(body, "title", BoardOps.MAX_TITLE))
        .map(Board::toJson));
  }

  /** The board and its tiles with their stored copies: runs nothing. */
  private void get(RoutingContext ctx) {
    Replies.send(ctx, 200, boards.read(userId(ctx), ctx.pathParam("bid")).map(BoardRead::toJson));
  }

  private void rename(RoutingContext ctx) {
    String title = Bodies.requiredString(Bodies.object(ctx), "title", BoardOps.MAX_TITLE);
    Replies.send(ctx, 200, boards.rename(userId(ctx), ctx.pathParam("bid"), title).map(Board::toJson));
  }

  private void delete(RoutingContext ctx) {
    boards.delete(userId(ctx), ctx.pathParam("bid"))
        .onSuccess(v -> Replies.noContent(ctx))
        .onFailure(e -> HttpErrors.respond(ctx, e));
  }

  /** {@code {result_id, kind?, chart?, title?}} → 201 the tile: its rows are copied by the server, never sent. */
  private void pin(RoutingContext ctx) {
    JsonObject body = Bodies.object(ctx);
    PinTile pin = new PinTile(userId(ctx), ctx.pathParam("bid"), null,
        Bodies.requiredString(body, "result_id", DatasetApi.MAX_ID), Bodies.optionalString(body, "kind", 16),
        Bodies.optionalObject(body, "chart"), Bodies.optionalString(body, "title", BoardOps.MAX_TITLE));
    boards.pin(pin)
        .onSuccess(tile -> Replies.json(ctx, 201, tile.toJson()))
        .onFailure(e -> HttpErrors.respondQuery(ctx, e));
  }

  /** {@code {tile_ids: [...]}}: every tile of the board, once, in its new order → the board. */
  private void reorder(RoutingContext ctx) {
    List<String> order = Bodies.strings(Bodies.object(ctx), "tile_ids", BoardOps.MAX_TILES, DatasetApi.MAX_ID,
        "Field 'tile_ids' must be an array of tile ids");
    Replies.send(ctx, 200, boards.reorder(userId(ctx), ctx.pathParam("bid"), order).map(BoardRead::toJson));
  }

  private void unpin(RoutingContext ctx) {
    boards.unpin(userId(ctx), ctx.pathParam("bid"), ctx.pathParam("tid"))
        .onSuccess(v -> Replies.noContent(ctx))
        .onFailure(e -> HttpErrors.respond(ctx, e));
  }

  /** The tile run again: the tile as it is now; a failure as a query's (with its {@code error_type}). */
  private void run(RoutingContext ctx) {
    boards.run(userId(ctx), ctx.pathParam("bid"), ctx.pathParam("tid"))
        .onSuccess(tile -> Replies.json(ctx, 200, tile.toJson()))
        .onFailure(e -> HttpErrors.respondQuery(ctx, e));
  }

  /** {@code {runs: [{tile_id, ok, error, tile}]}}, in the board's order. */
  private void runAll(RoutingContext ctx) {
    Replies.send(ctx, 200, boards.runAll(userId(ctx), ctx.pathParam("bid")).map(runs -> new JsonObject().put("runs",
        new JsonArray(runs.stream().map(TileRun::toJson).toList()))));
  }

  /** {@code {tiles: [{tile_id, stale, reason}]}}: the servers of the tiles' files asked, no query run. */
  private void stale(RoutingContext ctx) {
    Replies.send(ctx, 200, boards.stale(userId(ctx), ctx.pathParam("bid")).map(list -> new JsonObject().put("tiles",
        new JsonArray(list.stream().map(Staleness::toJson).toList()))));
  }

  private static String userId(RoutingContext ctx) {
    return Auth.user(ctx).id();
  }
}
