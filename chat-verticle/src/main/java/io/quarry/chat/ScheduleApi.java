package io.quarry.chat;

import io.quarry.bus.Schedule;
import io.quarry.bus.ScheduleOps.CreateSchedule;
import io.quarry.bus.ScheduleOps.ScheduleRef;
import io.quarry.bus.ScheduleOps.UpdateSchedule;
import io.quarry.bus.ScheduleRun;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * {@code /api/schedules}: the signed-in user's scheduled questions (see {@link Schedules}). Another user's schedule is
 * 404, as an unknown one.
 */
final class ScheduleApi {

  private static final int FIELD_MAX = 8_192;

  private final Schedules schedules;

  ScheduleApi(Schedules schedules) {
    this.schedules = schedules;
  }

  void mount(Router router) {
    router.post("/api/schedules").handler(this::create);
    router.get("/api/schedules").handler(this::list);
    router.patch("/api/schedules/:id").handler(this::update);
    router.delete("/api/schedules/:id").handler(this::delete);
    router.get("/api/schedules/:id/runs").handler(this::runs);
    router.post("/api/schedules/:id/run").handler(this::runNow);
    Routes.allowOnly(router, "/api/schedules", HttpMethod.GET, HttpMethod.POST);
    Routes.allowOnly(router, "/api/schedules/:id", HttpMethod.PATCH, HttpMethod.DELETE);
    Routes.allowOnly(router, "/api/schedules/:id/runs", HttpMethod.GET);
    Routes.allowOnly(router, "/api/schedules/:id/run", HttpMethod.POST);
  }

  /** {@code {result_id, every, at?, weekday?, time_zone?, webhook_url?}} → 201, with {@code webhook_secret} once. */
  private void create(RoutingContext ctx) {
    JsonObject body = Bodies.object(ctx);
    CreateSchedule request = new CreateSchedule(Auth.user(ctx).id(), string(body, "result_id"),
        string(body, "tile_id"), string(body, "every"), string(body, "at"), string(body, "weekday"),
        string(body, "time_zone"), string(body, "webhook_url"));
    Replies.send(ctx, 201, schedules.create(request).map(Schedule::toJson));
  }

  private static String string(JsonObject body, String field) {
    return Bodies.optionalString(body, field, FIELD_MAX);
  }

  private void list(RoutingContext ctx) {
    Replies.send(ctx, 200, schedules.list(Auth.user(ctx).id()).map(all -> new JsonObject().put("schedules",
        new JsonArray(all.stream().map(Schedule::toJson).toList()))));
  }

  /** {@code {paused: true|false}}. */
  private void update(RoutingContext ctx) {
    Object paused = Bodies.object(ctx).getValue("paused");
    if (!(paused instanceof Boolean)) {
      HttpErrors.send(ctx, 400, "Field 'paused' must be true or false", null);
      return;
    }
    Replies.send(ctx, 200, schedules.update(new UpdateSchedule(Auth.user(ctx).id(), ctx.pathParam("id"),
        (Boolean) paused, null)).map(Schedule::toJson));
  }

  private void delete(RoutingContext ctx) {
    schedules.delete(ref(ctx)).onSuccess(v -> Replies.noContent(ctx)).onFailure(e -> HttpErrors.respond(ctx, e));
  }

  private void runs(RoutingContext ctx) {
    Replies.send(ctx, 200, schedules.runs(ref(ctx)).map(runs -> new JsonObject().put("runs",
        new JsonArray(runs.stream().map(ScheduleRun::toJson).toList()))));
  }

  private void runNow(RoutingContext ctx) {
    Replies.send(ctx, 202, schedules.runNow(ref(ctx)).map(Schedule::toJson));
  }

  private static ScheduleRef ref(RoutingContext ctx) {
    return new ScheduleRef(Auth.user(ctx).id(), ctx.pathParam("id"));
  }
}
