package io.quarry.chat;

import io.quarry.bus.ApiOps;
import io.quarry.bus.ChartData;
import io.quarry.bus.Dataset;
import io.quarry.bus.DatasetClient;
import io.quarry.bus.QuarryException;
import io.quarry.bus.QueryResult;
import io.quarry.bus.ResultRun;
import io.quarry.bus.StorageClient;
import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/** A conversation's datasets and SQL over them; stored results by id. */
final class DatasetApi {

  static final int MAX_NAME = ApiOps.MAX_NAME;
  static final int MAX_SQL = ApiOps.MAX_SQL;
  static final int MAX_ORIGIN = 16;
  static final int MAX_ID = 64;

  private final DatasetClient datasets;
  private final StorageClient storage;
  private final Uploads uploads;

  DatasetApi(DatasetClient datasets, StorageClient storage, Uploads uploads) {
    this.datasets = datasets;
    this.storage = storage;
    this.uploads = uploads;
  }

  void mount(Router router) {
    String base = "/api/conversations/:id/datasets";
    // Before ":did", whose 405 for POST would otherwise answer it.
    router.post(base + "/versions").handler(this::versions);
    Routes.allowOnly(router, base + "/versions", HttpMethod.POST);
    router.post(base).handler(this::add);
    router.patch(base + "/:did").handler(this::rename);
    router.delete(base + "/:did").handler(this::remove);
    router.post(base + "/:did/refresh").handler(this::refresh);
    router.get(base + "/:did/profile").handler(this::profile);
    router.post("/api/conversations/:id/query").handler(this::query);
    router.get("/api/results/:rid").handler(this::result);
    router.post("/api/results/:rid/chart").handler(this::chart);
    Routes.allowOnly(router, base, HttpMethod.POST);
    Routes.allowOnly(router, base + "/:did", HttpMethod.PATCH, HttpMethod.DELETE);
    Routes.allowOnly(router, base + "/:did/refresh", HttpMethod.POST);
    Routes.allowOnly(router, base + "/:did/profile", HttpMethod.GET);
    Routes.allowOnly(router, "/api/conversations/:id/query", HttpMethod.POST);
    Routes.allowOnly(router, "/api/results/:rid", HttpMethod.GET);
    Routes.allowOnly(router, "/api/results/:rid/chart", HttpMethod.POST);
  }

  private void add(RoutingContext ctx) {
    // Any string goes on: an empty, blank or over-long one fails the pipeline's step 1, "Invalid URL format".
    String url = Bodies.optionalString(Bodies.object(ctx), "url", Integer.MAX_VALUE);
    if (url == null) {
      throw QuarryException.badRequest("Field 'url' is required");
    }
    Replies.send(ctx, 201, datasets.add(userId(ctx), ctx.pathParam("id"), url).map(Dataset::toJson));
  }

  private void rename(RoutingContext ctx) {
    String name = Bodies.requiredString(Bodies.object(ctx), "name", MAX_NAME);
    Replies.send(ctx, 200, datasets.rename(userId(ctx), ctx.pathParam("id"), ctx.pathParam("did"), name)
        .map(Dataset::toJson));
  }

  private void refresh(RoutingContext ctx) {
    Replies.send(ctx, 200, datasets.refresh(userId(ctx), ctx.pathParam("id"), ctx.pathParam("did"))
        .map(Dataset::toJson));
  }

  /**
   * The dataset's column profile ({@link io.quarry.bus.Profile}); {@code ?top=<column>} adds that column's most
   * frequent values and histogram.
   */
  private void profile(RoutingContext ctx) {
    String top = ctx.queryParams().get("top");
    if (top != null && (top.isBlank() || top.length() > MAX_NAME)) {
      throw QuarryException.badRequest("Parameter 'top' must name a column");
    }
    Replies.send(ctx, 200, datasets.profile(userId(ctx), ctx.pathParam("id"), ctx.pathParam("did"), top, "")
        .map(io.quarry.bus.Profile::toJson));
  }

  /**
   * Asks the servers of the conversation's datasets whether their files changed since they were recorded (at most once
   * a dataset per {@code dataset.versionCheckIntervalMs}); answers {@code {checked, changed, datasets}} as they now
   * are, so that the page need not wait for {@code dataset_loaded} on a socket that may still be connecting.
   */
  private void versions(RoutingContext ctx) {
    String userId = userId(ctx);
    String id = ctx.pathParam("id");
    Replies.send(ctx, 200, storage.conversation(userId, id)
        .compose(mine -> datasets.checkVersions(userId, id))
        .compose(checked -> storage.datasets(userId, id).map(now -> checked.toJson()
            .put("datasets", new JsonArray(now.stream().map(Dataset::toJson).toList())))));
  }

  /** A chart of the result from every row of it, as the body's spec asks ({@link io.quarry.bus.ChartSpec}). */
  private void chart(RoutingContext ctx) {
    Replies.send(ctx, 200, datasets.chart(userId(ctx), ctx.pathParam("rid"), Bodies.object(ctx), "")
        .map(ChartData::toJson));
  }

  private void remove(RoutingContext ctx) {
    // A file uploaded for the dataset goes with it (the answer waits, so that it is gone once the user hears so).
    datasets.remove(userId(ctx), ctx.pathParam("id"), ctx.pathParam("did"))
        .compose(v -> uploads.sweep(storage, userId(ctx), ctx.pathParam("id")))
        .onSuccess(v -> Replies.noContent(ctx))
        .onFailure(e -> HttpErrors.respond(ctx, e));
  }

  /**
   * Runs SQL. A run the user will see as their own ({@code origin}: an answer's SQL edited, with the answer's
   * {@code message_id}, or the SQL runner's) is marked as such before the answer, so that a reload shows it again;
   * a table's re-sort names none.
   */
  private void query(RoutingContext ctx) {
    JsonObject body = Bodies.object(ctx);
    String sql = Bodies.requiredString(body, "sql", MAX_SQL);
    String origin = Bodies.optionalString(body, "origin", MAX_ORIGIN);
    String messageId = Bodies.optionalString(body, "message_id", MAX_ID);
    if (origin != null && !ResultRun.knownOrigin(origin)) {
      throw QuarryException.badRequest("Field 'origin' must be 'edited' or 'runner'");
    }
    if (ResultRun.EDITED.equals(origin) && (messageId == null || messageId.isBlank())) {
      throw QuarryException.badRequest("Field 'message_id' is required with origin 'edited'");
    }
    String userId = userId(ctx);
    String conversationId = ctx.pathParam("id");
    datasets.query(userId, conversationId, sql)
        .compose(result -> origin == null ? Future.succeededFuture(result.toJson())
            : storage.saveRun(userId, new ResultRun(result.id(), conversationId, origin,
                    ResultRun.EDITED.equals(origin) ? messageId : null, null))
                .map(run -> result.toJson().put("origin", run.origin()).put("message_id", run.messageId())))
        .onSuccess(result -> Replies.json(ctx, 200, result))
        .onFailure(e -> HttpErrors.respondQuery(ctx, e));
  }

  private void result(RoutingContext ctx) {
    Replies.send(ctx, 200, storage.result(userId(ctx), ctx.pathParam("rid")).map(QueryResult::toJson));
  }

  private static String userId(RoutingContext ctx) {
    return Auth.user(ctx).id();
  }
}
