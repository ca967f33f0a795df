package io.quarry.bus;

import static io.quarry.bus.Addresses.*;
import static io.quarry.bus.Fields.optional;
import static io.quarry.bus.Fields.text;

import io.quarry.bus.Scopes.UserRef;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * Scheduled questions (issue 52, item 3): storage's operations, which the scheduler of the dataset role and the web
 * edge use, and the public ones ({@code api.schedule.*}) the browser's {@code /api/schedules} mirrors. Kept apart from
 * {@link StorageOps} and {@link ApiOps} so that the kind grows here; {@link ApiOps#ALL} names the public ones.
 */
public final class ScheduleOps {

  private ScheduleOps() {
  }

  /** How many schedules one user may have. */
  public static final int MAX_PER_USER = 20;
  public static final String TOO_MANY = "Maximum " + MAX_PER_USER + " scheduled questions reached";
  /** The runs a schedule's list shows, newest first. */
  public static final int RUNS_LISTED = 50;
  public static final String NOT_FOUND = "Schedule not found";

  private static final long WAIT = Deliveries.STORAGE_TIMEOUT_MS;

  // Requests

  /** A new schedule, its id chosen by the caller (a second delivery finds it made); at most {@link #MAX_PER_USER}. */
  public record NewSchedule(Schedule schedule) {
    static final Codec<NewSchedule> CODEC = Codec.json(r -> r.schedule.toJson(),
        json -> new NewSchedule(Schedule.fromJson(json)));
  }

  public record ScheduleRef(String userId, String scheduleId) {
    static final Codec<ScheduleRef> CODEC = Codec.json(
        r -> new JsonObject().put(Keys.USER_ID, r.userId).put("schedule_id", r.scheduleId),
        json -> new ScheduleRef(text(json, Keys.USER_ID), text(json, "schedule_id")));
  }

  /**
   * Pauses or resumes a schedule, or makes it due at once ({@code nextRunAt} now: "run now"); {@code nextRunAt} is
   * when it next runs (the caller computes it from its cadence), null to leave it.
   */
  public record UpdateSchedule(String userId, String scheduleId, Boolean paused, String nextRunAt) {
    static final Codec<UpdateSchedule> CODEC = Codec.json(
        r -> new JsonObject().put(Keys.USER_ID, r.userId).put("schedule_id", r.scheduleId).put("paused", r.paused)
            .put("next_run_at", r.nextRunAt),
        json -> new UpdateSchedule(text(json, Keys.USER_ID), text(json, "schedule_id"), pausedField(json),
            optional(json, "next_run_at")));

    private static Boolean pausedField(JsonObject json) {
      Object value = json.getValue("paused");
      if (value != null && !(value instanceof Boolean)) {
        throw QuarryException.badRequest("Field 'paused' must be true or false");
      }
      return (Boolean) value;
    }
  }

  /**
   * A node's claim at {@code now}: every due schedule whose lease is free or expired becomes {@code owner}'s until
   * {@code leaseUntil} ({@code owner} names this one claim, so that what it took can be read back).
   */
  public record Claim(String owner, String now, String leaseUntil) {
    static final Codec<Claim> CODEC = Codec.json(
        r -> new JsonObject().put("owner", r.owner).put("now", r.now).put("lease_until", r.leaseUntil),
        json -> new Claim(text(json, "owner"), text(json, "now"), text(json, "lease_until")));
  }

  /** A lease held: renewed to {@code until}, or released with the schedule's next run at {@code until}. */
  public record Lease(String scheduleId, String owner, String until) {
    static final Codec<Lease> CODEC = Codec.json(
        r -> new JsonObject().put("schedule_id", r.scheduleId).put("owner", r.owner).put("until", r.until),
        json -> new Lease(text(json, "schedule_id"), text(json, "owner"), text(json, "until")));
  }

  /** The run of a schedule's due time, made if none is ({@code runId} then names it), with the run before it. */
  public record StartRun(String scheduleId, String dueAt, String runId, boolean webhook) {
    static final Codec<StartRun> CODEC = Codec.json(
        r -> new JsonObject().put("schedule_id", r.scheduleId).put("due_at", r.dueAt).put("run_id", r.runId)
            .put("webhook", r.webhook),
        json -> new StartRun(text(json, "schedule_id"), text(json, "due_at"), optional(json, "run_id"),
            json.getBoolean("webhook", false)));
  }

  /** The run of a due time (as another node may have left it), and the last finished run before it, or null. */
  public record RunStart(ScheduleRun run, ScheduleRun previous) {
    static final Codec<RunStart> CODEC = Codec.json(
        r -> new JsonObject().put("run", r.run.toJson()).put("previous", r.previous == null ? null
            : r.previous.toJson()),
        json -> new RunStart(ScheduleRun.fromJson(json.getJsonObject("run")),
            json.getJsonObject("previous") == null ? null : ScheduleRun.fromJson(json.getJsonObject("previous"))));
  }

  /** How far a run's delivery got: the page's event sent, the webhook's state, attempts and next attempt. */
  public record Delivery(String runId, boolean eventSent, String webhookState, int attempts, String nextAttemptAt,
      String lastError) {
    static final Codec<Delivery> CODEC = Codec.json(
        r -> new JsonObject().put("run_id", r.runId).put("event_sent", r.eventSent).put("webhook_state", r.webhookState)
            .put("attempts", r.attempts).put("next_attempt_at", r.nextAttemptAt).put("last_error", r.lastError),
        json -> new Delivery(text(json, "run_id"), json.getBoolean("event_sent", false),
            text(json, "webhook_state"), json.getInteger("attempts", 0), json.getString("next_attempt_at"),
            json.getString("last_error")));
  }

  /** A webhook delivery that is due again: its run and its schedule (with the secret it is signed with). */
  public record Pending(Schedule schedule, ScheduleRun run) {
    static final Codec<Pending> CODEC = Codec.json(
        r -> new JsonObject().put("schedule", r.schedule.toJson()).put("run", r.run.toJson()),
        json -> new Pending(Schedule.fromJson(json.getJsonObject("schedule")),
            ScheduleRun.fromJson(json.getJsonObject("run"))));
  }

  /** This node's scheduler, one tick at {@code now}; answers how many schedules and retries it took. */
  public record Tick(String now) {
    static final Codec<Tick> CODEC = Codec.json(r -> new JsonObject().put("now", r.now),
        json -> new Tick(text(json, "now")));
  }

  public record Ticked(int runs, int retries) {
    static final Codec<Ticked> CODEC = Codec.json(r -> new JsonObject().put("runs", r.runs).put("retries", r.retries),
        json -> new Ticked(json.getInteger("runs", 0), json.getInteger("retries", 0)));
  }

  /**
   * A public request to schedule a stored result's SQL (or a board tile's, {@code tileId}, whose copy each run
   * replaces): {@code every}
   * hourly, daily or weekly; {@code at} "HH:MM"; {@code weekday}; {@code timeZone} IANA; {@code webhookUrl}
   * optional, held to the datasets' address policy when it is called.
   */
  public record CreateSchedule(String userId, String resultId, String tileId, String every, String at,
      String weekday, String timeZone, String webhookUrl) {
    static final Codec<CreateSchedule> CODEC = Codec.json(
        r -> new JsonObject().put(Keys.USER_ID, r.userId).put(Keys.RESULT_ID, r.resultId).put("tile_id", r.tileId)
            .put("every", r.every).put("at", r.at).put("weekday", r.weekday).put("time_zone", r.timeZone)
            .put("webhook_url", r.webhookUrl),
        json -> new CreateSchedule(text(json, Keys.USER_ID), optional(json, Keys.RESULT_ID), optional(json, "tile_id"),
            optional(json, "every"), optional(json, "at"), optional(json, "weekday"), optional(json, "time_zone"),
            optional(json, "webhook_url")));
  }

  static final Codec<Schedule> SCHEDULE = Codec.json(Schedule::toJson, Schedule::fromJson);
  static final Codec<ScheduleRun> RUN = Codec.json(ScheduleRun::toJson, ScheduleRun::fromJson);

  // Storage's operations

  /** BAD_REQUEST {@link #TOO_MANY}; NOT_FOUND when the conversation is not the user's. */
  public static final Operation<NewSchedule, Schedule> CREATE = idempotent(STORAGE_SCHEDULE_CREATE, NewSchedule.CODEC,
      SCHEDULE);
  /** The user's schedules, oldest first. */
  public static final Operation<UserRef, List<Schedule>> LIST = idempotent(STORAGE_SCHEDULE_LIST, UserRef.CODEC,
      Codec.items(SCHEDULE));
  /** NOT_FOUND when it is not the user's. */
  public static final Operation<ScheduleRef, Schedule> GET = idempotent(STORAGE_SCHEDULE_GET, ScheduleRef.CODEC,
      SCHEDULE);
  public static final Operation<UpdateSchedule, Schedule> UPDATE = idempotent(STORAGE_SCHEDULE_UPDATE,
      UpdateSchedule.CODEC, SCHEDULE);
  /** With its runs. NOT_FOUND (also after a delivery that did it). */
  public static final Operation<ScheduleRef, Void> DELETE = Operation.of(STORAGE_SCHEDULE_DELETE, ScheduleRef.CODEC,
      Codec.NONE, WAIT, Resend.REMOVAL);
  /** The last {@link #RUNS_LISTED} runs, newest first, without their rows; NOT_FOUND. */
  public static final Operation<ScheduleRef, List<ScheduleRun>> RUNS = idempotent(STORAGE_SCHEDULE_RUNS,
      ScheduleRef.CODEC, Codec.items(RUN));
  /** Every due schedule whose lease is free or expired, now the claimer's, with its webhook secret. */
  public static final Operation<Claim, List<Schedule>> CLAIM = idempotent(STORAGE_SCHEDULE_CLAIM, Claim.CODEC,
      Codec.items(SCHEDULE));
  /** NOT_FOUND when the lease is no longer the owner's (it expired and another node took it). */
  public static final Operation<Lease, Void> RENEW = idempotent(STORAGE_SCHEDULE_RENEW, Lease.CODEC, Codec.NONE);
  /** Sets the next run and frees the lease, if the owner still holds it. */
  public static final Operation<Lease, Void> RELEASE = idempotent(STORAGE_SCHEDULE_RELEASE, Lease.CODEC, Codec.NONE);
  public static final Operation<StartRun, RunStart> RUN_START = idempotent(STORAGE_SCHEDULE_RUN_START,
      StartRun.CODEC, RunStart.CODEC);
  /** Stores a run's end (rows, comparison, summary, or reason); a run already ended is answered as it stands. */
  public static final Operation<ScheduleRun, ScheduleRun> RUN_FINISH = idempotent(STORAGE_SCHEDULE_RUN_FINISH, RUN,
      RUN);
  public static final Operation<Delivery, Void> RUN_DELIVERED = idempotent(STORAGE_SCHEDULE_RUN_DELIVERED,
      Delivery.CODEC, Codec.NONE);
  /** Webhook deliveries due again, each now the claimer's until {@code leaseUntil} (its next attempt time). */
  public static final Operation<Claim, List<Pending>> RETRIES_CLAIM = idempotent(STORAGE_SCHEDULE_RETRIES_CLAIM,
      Claim.CODEC, Codec.items(Pending.CODEC));
  /** Local to a node: its scheduler's tick. */
  public static final Operation<Tick, Ticked> TICK = Operation.of(SCHEDULE_TICK, Tick.CODEC, Ticked.CODEC,
      ApiOps.QUERY_WAIT_MS, Resend.NEVER);

  // The public operations

  private static final long API_WAIT = ApiOps.WAIT_MS;

  /**
   * Schedules a stored result's SQL: 201's body, with {@code webhook_secret} this once when a webhook is set.
   * BAD_REQUEST (every, at, weekday, time_zone, webhook_url, {@link #TOO_MANY}, both a result and a tile), NOT_FOUND
   * (not the user's result or tile), CONFLICT (a tile whose conversation was deleted).
   */
  public static final Operation<CreateSchedule, Schedule> API_CREATE = Operation.of(API_SCHEDULE_CREATE,
      CreateSchedule.CODEC, SCHEDULE, API_WAIT, Resend.NEVER);
  public static final Operation<UserRef, List<Schedule>> API_LIST = Operation.of(API_SCHEDULE_LIST, UserRef.CODEC,
      Codec.items(SCHEDULE), API_WAIT, Resend.IDEMPOTENT);
  /** Pauses a schedule: no run until it is resumed; NOT_FOUND. */
  public static final Operation<ScheduleRef, Schedule> API_PAUSE = Operation.of(API_SCHEDULE_PAUSE, ScheduleRef.CODEC,
      SCHEDULE, API_WAIT, Resend.IDEMPOTENT);
  /** Resumes a schedule at its next time from now (the runs missed while paused are not made up); NOT_FOUND. */
  public static final Operation<ScheduleRef, Schedule> API_RESUME = Operation.of(API_SCHEDULE_RESUME,
      ScheduleRef.CODEC, SCHEDULE, API_WAIT, Resend.IDEMPOTENT);
  public static final Operation<ScheduleRef, Void> API_DELETE = Operation.of(API_SCHEDULE_DELETE, ScheduleRef.CODEC,
      Codec.NONE, API_WAIT, Resend.REMOVAL);
  /** The schedule's last runs, newest first: status, reason, summary, comparison, delivery; NOT_FOUND. */
  public static final Operation<ScheduleRef, List<ScheduleRun>> API_RUNS = Operation.of(API_SCHEDULE_RUNS,
      ScheduleRef.CODEC, Codec.items(RUN), API_WAIT, Resend.IDEMPOTENT);
  /** Makes the schedule due now: a scheduler's next tick runs and delivers it as a due run; NOT_FOUND. */
  public static final Operation<ScheduleRef, Schedule> API_RUN_NOW = Operation.of(API_SCHEDULE_RUN_NOW,
      ScheduleRef.CODEC, SCHEDULE, API_WAIT, Resend.IDEMPOTENT);

  public static final List<Operation<?, ?>> PUBLIC = List.of(API_CREATE, API_LIST, API_PAUSE, API_RESUME, API_DELETE,
      API_RUNS, API_RUN_NOW);

  /** The event a run's outcome is published as on {@link Addresses#chatEvents}: {@code schedule_run}. */
  public static final String EVENT = ChatEvents.SCHEDULE_RUN;

  public static JsonObject event(Schedule schedule, ScheduleRun run) {
    return ChatEvents.event(EVENT, schedule.conversationId()).put("schedule_id", schedule.id())
        .put("run_id", run.id()).put("due_at", run.dueAt()).put("status", run.status())
        .put("summary", run.summary()).put("reason", run.reason()).put("comparison", run.comparison())
        .put(Keys.RESULT_ID, run.resultId()).put("target_kind", schedule.targetKind())
        .put("target_id", schedule.targetId());
  }

  private static <Q, R> Operation<Q, R> idempotent(String address, Codec<Q> request, Codec<R> reply) {
    return Operation.of(address, request, reply, WAIT, Resend.IDEMPOTENT);
  }
}
