package io.quarry.chat;

import io.quarry.bus.Failure;
import io.quarry.bus.QuarryException;
import io.quarry.bus.Shares;
import io.quarry.bus.Shares.Opened;
import io.quarry.bus.Shares.Share;
import io.quarry.bus.Source;
import io.quarry.bus.Tile;
import io.quarry.bus.UrlSecrets;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * What a board's share link shows: the board as it is when the link is opened (a board changes by re-runs, and each
 * tile says when it ran), read through {@link Boards#read} for its owner, so nothing runs and no server is asked. Only
 * what the page draws leaves: no board, conversation or user id, and the files' URLs with their secrets redacted.
 */
final class SharedBoard {

  private final Boards boards;

  SharedBoard(Boards boards) {
    this.boards = boards;
  }

  Future<JsonObject> snapshot(Opened opened) {
    Share share = opened.share();
    return boards.read(opened.userId(), share.boardId()).recover(SharedBoard::notFound)
        .map(read -> new JsonObject().put("kind", share.kind()).put("title", read.board().title())
            .put("display_name", share.displayName()).put("shared_at", share.createdAt())
            .put("expires_at", share.expiresAt()).put("messages", new JsonArray()).put("results", new JsonArray())
            .put("datasets", new JsonArray())
            .put("tiles", new JsonArray(read.tiles().stream().map(SharedBoard::tile).toList())));
  }

  /** One tile of the shared board; any other tile, and any tile of a conversation's link, is the link's 404. */
  Future<Tile> tile(Opened opened, String tileId) {
    if (!Shares.BOARD.equals(opened.share().kind())) {
      return Future.failedFuture(QuarryException.notFound(Shares.NOT_FOUND));
    }
    return boards.read(opened.userId(), opened.share().boardId()).recover(SharedBoard::notFound)
        .compose(read -> read.tiles().stream().filter(t -> t.id().equals(tileId)).findFirst()
            .map(Future::succeededFuture)
            .orElseGet(() -> Future.failedFuture(QuarryException.notFound(Shares.NOT_FOUND))));
  }

  private static <T> Future<T> notFound(Throwable e) {
    return Future.failedFuture(Failure.classify(e) == Failure.NOT_FOUND ? QuarryException.notFound(Shares.NOT_FOUND)
        : e);
  }

  private static JsonObject tile(Tile t) {
    JsonArray sources = new JsonArray();
    t.sourceList().forEach(s -> sources.add(redacted(s)));
    return new JsonObject().put("id", t.id()).put("position", t.position()).put("title", t.title())
        .put("kind", t.kind()).put("chart", t.chart()).put("sql", t.sql()).put("sources", sources)
        .put("columns", t.columns()).put("rows", t.rows().toJsonArray()).put("total_rows", t.totalRows())
        .put("truncated", t.truncated()).put("ran_at", t.ranAt());
  }

  private static JsonObject redacted(Source source) {
    return source.toJson().put("url", UrlSecrets.shown(source.url()));
  }
}
