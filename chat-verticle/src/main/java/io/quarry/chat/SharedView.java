package io.quarry.chat;

import io.quarry.bus.ChatMessage;
import io.quarry.bus.Dataset;
import io.quarry.bus.Failure;
import io.quarry.bus.QuarryException;
import io.quarry.bus.QueryResult;
import io.quarry.bus.Sha256;
import io.quarry.bus.Shares;
import io.quarry.bus.Shares.Opened;
import io.quarry.bus.Shares.Share;
import io.quarry.bus.StorageClient;
import io.quarry.bus.UrlSecrets;
import io.quarry.bus.User;
import io.vertx.core.Future;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * What a share link opens, without a session when its audience is {@code anyone}: the page {@code /s/<token>}, its
 * JSON {@code /api/s/<token>} and the downloads of its results' stored rows. Read-only by construction: it reads the
 * snapshot through storage for the sharer and answers only what the page draws (no user id, e-mail, session or other
 * conversation; dataset URLs redacted); nothing here runs a query. A board's link ({@link SharedBoard}) shows its tiles
 * as they are when opened, and downloads a tile's stored copy. An unknown, revoked or expired token, and a result
 * not in the share, are the same 404. Mounted before authentication; a link for {@code users} asks who is signed in
 * itself. Every answer says {@code Referrer-Policy: no-referrer} (the token is in the path) and {@code noindex}.
 */
final class SharedView {

  static final String PAGE = "/s/[A-Za-z0-9_-]{1,100}";
  static final String SIGN_IN = "Sign in to this Quarry to see this shared link";

  private final StorageClient storage;
  private final Function<RoutingContext, Future<User>> signedIn;
  private final String ceiling;
  private final SharedBoard board;

  /**
   * {@code signedIn}: the request's user, failing when it has none; {@code ceiling}: {@code share.audience};
   * {@code boards}: what reads a shared board.
   */
  SharedView(StorageClient storage, Function<RoutingContext, Future<User>> signedIn, String ceiling, Boards boards) {
    this.storage = storage;
    this.signedIn = signedIn;
    this.ceiling = ceiling;
    this.board = new SharedBoard(boards);
  }

  void mountApi(Router router) {
    router.route("/api/s/*").handler(ctx -> {
      private_(ctx);
      ctx.next();
    });
    router.get("/api/s/:token").handler(this::read);
    router.get("/api/s/:token/results/:rid").handler(this::download);
    router.get("/api/s/:token/tiles/:tid").handler(this::downloadTile);
    Routes.allowOnly(router, "/api/s/:token", HttpMethod.GET);
    Routes.allowOnly(router, "/api/s/:token/results/:rid", HttpMethod.GET);
    Routes.allowOnly(router, "/api/s/:token/tiles/:tid", HttpMethod.GET);
  }

  /** The page, after the API's routes: the page asks {@code /api/s/<token>} itself and says what it answered. */
  static void mountPage(Router router, Webroot webroot) {
    router.getWithRegex(PAGE).handler(ctx -> {
      private_(ctx);
      webroot.pageAsIs(ctx, "shared.html");
    });
  }

  /** The token is in the address: no page of this one sends it on, no search engine keeps it, no cache holds it. */
  private static void private_(RoutingContext ctx) {
    ctx.response().putHeader("Referrer-Policy", "no-referrer").putHeader("X-Robots-Tag", "noindex, nofollow")
        .putHeader(HttpHeaders.CACHE_CONTROL, "no-store");
  }

  private void read(RoutingContext ctx) {
    Replies.send(ctx, 200, open(ctx).compose(opened -> Shares.BOARD.equals(opened.share().kind())
        ? board.snapshot(opened) : snapshot(opened)));
  }

  /** The live share of the path's token that this request may see: 404 for none, 401 for a users' link unsigned. */
  private Future<Opened> open(RoutingContext ctx) {
    return storage.openShare(Sha256.hex(ctx.pathParam("token")))
        .compose(opened -> Shares.OFF.equals(ceiling) ? Future.failedFuture(QuarryException.notFound(Shares.NOT_FOUND))
            // A ceiling lowered since the link was made holds for it too.
            : Shares.ANYONE.equals(opened.share().audience()) && Shares.ANYONE.equals(ceiling)
                ? Future.succeededFuture(opened)
                : signedIn.apply(ctx).transform(user -> user.succeeded() ? Future.succeededFuture(opened)
                    : Future.failedFuture(new QuarryException(Failure.UNAUTHORIZED, SIGN_IN))))
        .recover(e -> Failure.classify(e) == Failure.NOT_FOUND
            ? Future.failedFuture(QuarryException.notFound(Shares.NOT_FOUND)) : Future.failedFuture(e));
  }

  /** The messages as they were when shared, their results as stored, the datasets' names and versions. */
  private Future<JsonObject> snapshot(Opened opened) {
    Share share = opened.share();
    String userId = opened.userId();
    Future<List<ChatMessage>> messages = storage.messages(userId, share.conversationId()).map(all -> shown(share, all));
    Future<List<Dataset>> datasets = storage.datasets(userId, share.conversationId());
    Future<List<QueryResult>> results = messages.compose(shown -> results(userId, resultIds(shown)));
    return Future.all(messages, datasets, results).map(all -> new JsonObject()
        .put("kind", share.kind()).put("title", share.title()).put("display_name", share.displayName())
        .put("shared_at", share.createdAt()).put("expires_at", share.expiresAt())
        .put("messages", new JsonArray(messages.result().stream().map(SharedView::message).toList()))
        .put("results", new JsonArray(results.result().stream().map(SharedView::result).toList()))
        .put("datasets", new JsonArray(datasets.result().stream().map(SharedView::dataset).toList())));
  }

  /**
   * A conversation's questions and finished answers up to when it was shared; an answer's share, that answer and the
   * question before it.
   */
  static List<ChatMessage> shown(Share share, List<ChatMessage> all) {
    List<ChatMessage> said = all.stream().filter(m -> !ChatMessage.TOOL.equals(m.role())
        && !ChatMessage.STREAMING.equals(m.status())).toList();
    if (Shares.MESSAGE.equals(share.kind())) {
      List<ChatMessage> pair = new ArrayList<>();
      for (int i = 0; i < said.size(); i++) {
        if (said.get(i).id().equals(share.messageId())) {
          if (i > 0 && ChatMessage.USER.equals(said.get(i - 1).role())) {
            pair.add(said.get(i - 1));
          }
          pair.add(said.get(i));
        }
      }
      return pair;
    }
    return said.stream().filter(m -> m.createdAt() != null && m.createdAt().compareTo(share.until()) <= 0).toList();
  }

  private static Set<String> resultIds(List<ChatMessage> messages) {
    Set<String> ids = new LinkedHashSet<>();
    messages.forEach(m -> m.resultIds().forEach(id -> ids.add(String.valueOf(id))));
    return ids;
  }

  private Future<List<QueryResult>> results(String userId, Set<String> ids) {
    List<Future<QueryResult>> each = ids.stream().map(id -> storage.result(userId, id)).toList();
    return Future.join(each).transform(done -> Future.succeededFuture(
        each.stream().filter(Future::succeeded).map(Future::result).toList()));
  }

  private static JsonObject message(ChatMessage m) {
    return new JsonObject().put("id", m.id()).put("role", m.role()).put("content", m.content())
        .put("sql", m.sql() == null ? new JsonArray() : m.sql())
        .put("result_ids", m.resultIds() == null ? new JsonArray() : m.resultIds())
        .put("charts", m.charts() == null ? new JsonArray() : m.charts())
        .put("status", m.status()).put("notice", m.notice()).put("created_at", m.createdAt());
  }

  private static JsonObject result(QueryResult r) {
    JsonArray sources = new JsonArray();
    r.sourceList().forEach(s -> sources.add(s.toJson().put("url", UrlSecrets.shown(s.url()))));
    return new JsonObject().put("id", r.id()).put("sql", r.sql()).put("columns", r.columns())
        .put("rows", r.rowValues()).put("total_rows", r.totalRows()).put("truncated", r.truncated())
        .put("created_at", r.createdAt()).put("sources", sources);
  }

  private static JsonObject dataset(Dataset d) {
    return new JsonObject().put("name", d.name()).put("url", UrlSecrets.shown(d.url())).put("format", d.format())
        .put("row_count", d.rowCount()).put("column_count", d.columnCount()).put("file_size", d.fileSize())
        .put("etag", d.etag()).put("updated_at", d.updatedAt());
  }

  /** {@code ?format=csv|json} of a result's stored rows; a result the share does not show is the same 404. */
  private void download(RoutingContext ctx) {
    String format = format(ctx);
    if (format == null) {
      return;
    }
    String rid = ctx.pathParam("rid");
    open(ctx).compose(opened -> Shares.BOARD.equals(opened.share().kind())
            ? Future.failedFuture(QuarryException.notFound(Shares.NOT_FOUND))
            : storage.messages(opened.userId(), opened.share().conversationId())
                .compose(all -> resultIds(shown(opened.share(), all)).contains(rid)
                    ? storage.result(opened.userId(), rid)
                    : Future.failedFuture(QuarryException.notFound(Shares.NOT_FOUND))))
        .onSuccess(result -> file(ctx, format, "result", format.equals("csv") ? SharedFiles.csv(result)
            : SharedFiles.json(result)))
        .onFailure(e -> HttpErrors.respond(ctx, e));
  }

  /** {@code ?format=csv|json} of a shared board tile's stored copy; a tile the share does not show is the same 404. */
  private void downloadTile(RoutingContext ctx) {
    String format = format(ctx);
    if (format == null) {
      return;
    }
    open(ctx).compose(opened -> board.tile(opened, ctx.pathParam("tid")))
        .onSuccess(tile -> file(ctx, format, "tile", format.equals("csv") ? SharedFiles.csv(tile)
            : SharedFiles.json(tile)))
        .onFailure(e -> HttpErrors.respond(ctx, e));
  }

  /** The asked format, csv by default; null once it answered 400 for another. */
  private static String format(RoutingContext ctx) {
    String format = ctx.queryParams().get("format") == null ? "csv" : ctx.queryParams().get("format");
    if (!format.equals("csv") && !format.equals("json")) {
      HttpErrors.send(ctx, 400, "Query parameter 'format' must be csv or json", null);
      return null;
    }
    return format;
  }

  private static void file(RoutingContext ctx, String format, String name, String body) {
    ctx.response().putHeader(HttpHeaders.CONTENT_TYPE, format.equals("csv") ? "text/csv;charset=UTF-8"
            : "application/json")
        .putHeader("Content-Disposition", "attachment; filename=\"" + name + "." + format + "\"").end(body);
  }
}
