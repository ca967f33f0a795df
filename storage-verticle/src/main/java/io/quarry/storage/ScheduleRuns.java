package io.quarry.storage;

import io.quarry.bus.ScheduleOps;
import io.quarry.bus.ScheduleOps.Claim;
import io.quarry.bus.ScheduleOps.Delivery;
import io.quarry.bus.ScheduleOps.Pending;
import io.quarry.bus.ScheduleOps.RunStart;
import io.quarry.bus.ScheduleOps.ScheduleRef;
import io.quarry.bus.ScheduleOps.StartRun;
import io.quarry.bus.ScheduleRun;
import io.quarry.bus.Timestamps;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import java.util.List;

/**
 * The runs of scheduled questions: one per schedule and due time (a unique key), so that a node taking over a dead
 * node's lease finds the run made, and delivers what it stored instead of running it again; their outcome, and how far
 * each delivery got, so that a webhook's retries outlive the node that began them.
 */
final class ScheduleRuns {

  private static final String LISTED = "r.id, r.schedule_id, r.due_at, r.status, r.reason, r.result_id, r.summary,"
      + " r.comparison_json, r.event_sent, r.webhook_state, r.attempts, r.next_attempt_at, r.last_error, r.created_at,"
      + " r.finished_at";
  private static final String WHOLE = LISTED + ", r.columns_json, r.rows_json";

  private final Db db;
  private final ScheduleStore schedules;

  ScheduleRuns(Db db, ScheduleStore schedules) {
    this.db = db;
    this.schedules = schedules;
  }

  /** The due time's run (made now unless another made it), with the last run before it that ended well. */
  Future<RunStart> start(StartRun r) {
    String webhook = r.webhook() ? ScheduleRun.PENDING : ScheduleRun.NONE;
    return db.run("INSERT INTO schedule_runs (id, schedule_id, due_at, status, webhook_state, created_at)"
            + " VALUES (?, ?, ?, 'running', ?, ?) ON CONFLICT (schedule_id, due_at) DO NOTHING", Db.idOr(r.runId()),
            r.scheduleId(), r.dueAt(), webhook, Timestamps.now())
        .compose(inserted -> db.one("Run not found", "SELECT " + WHOLE + " FROM schedule_runs r"
            + " WHERE r.schedule_id = ? AND r.due_at = ?", r.scheduleId(), r.dueAt()))
        .map(row -> run(row, true))
        .compose(run -> db.run("SELECT " + WHOLE + " FROM schedule_runs r WHERE r.schedule_id = ? AND r.due_at < ?"
                + " AND r.status = 'ok' ORDER BY r.due_at DESC LIMIT 1", r.scheduleId(), r.dueAt())
            .map(rows -> new RunStart(run, rows.size() == 0 ? null : run(rows.iterator().next(), true))));
  }

  /** Only a running run ends: a second delivery, or a node that lost its lease, changes nothing. */
  Future<ScheduleRun> finish(ScheduleRun run) {
    return db.run("UPDATE schedule_runs SET status = ?, reason = ?, result_id = ?, columns_json = ?, rows_json = ?,"
            + " summary = ?, comparison_json = ?, finished_at = ? WHERE id = ? AND status = 'running'", run.status(),
            run.reason(), run.resultId(), text(run.columns()), text(run.rows()),
            run.summary(), run.comparison() == null ? null : run.comparison().encode(), run.finishedAt(), run.id())
        .compose(updated -> db.one("Run not found", "SELECT " + WHOLE + " FROM schedule_runs r WHERE r.id = ?",
            run.id()))
        .map(row -> run(row, true));
  }

  Future<Void> delivered(Delivery d) {
    return db.run("UPDATE schedule_runs SET event_sent = ?, webhook_state = ?, attempts = ?, next_attempt_at = ?,"
            + " last_error = ?, webhook_claim = NULL WHERE id = ?", d.eventSent() ? 1 : 0, d.webhookState(),
        d.attempts(), d.nextAttemptAt(), d.lastError(), d.runId()).mapEmpty();
  }

  /** Newest first, without rows; NOT_FOUND when the schedule is not the user's. */
  Future<List<ScheduleRun>> list(ScheduleRef ref) {
    return schedules.get(ref).compose(mine -> db.run("SELECT " + LISTED + " FROM schedule_runs r"
            + " WHERE r.schedule_id = ? ORDER BY r.due_at DESC LIMIT " + ScheduleOps.RUNS_LISTED, ref.scheduleId()))
        .map(rows -> Db.each(rows, row -> run(row, false)));
  }

  /**
   * Webhook deliveries whose next attempt is due: one update moves each one's next attempt to the claim's lease end
   * and marks it the claimer's, so that two nodes never send the same attempt, and one that dies leaves it due again.
   */
  Future<List<Pending>> claimRetries(Claim c) {
    return db.run("UPDATE schedule_runs SET webhook_claim = ?, next_attempt_at = ? WHERE webhook_state = 'pending'"
            + " AND status <> 'running' AND next_attempt_at IS NOT NULL AND next_attempt_at <= ?", c.owner(),
            c.leaseUntil(), c.now())
        .compose(updated -> db.run("SELECT " + WHOLE + " FROM schedule_runs r WHERE r.webhook_claim = ?"
            + " ORDER BY r.due_at", c.owner()))
        .compose(rows -> Future.all(Db.each(rows, row -> run(row, true)).stream().map(run -> db.one("Schedule not found",
                "SELECT " + ScheduleStore.COLUMNS + ", s.webhook_secret FROM schedules s WHERE s.id = ?",
                run.scheduleId())
            .map(row -> new Pending(ScheduleStore.schedule(row, row.getString(ScheduleStore.SECRET)), run))).toList()))
        .map(all -> all.<Pending>list());
  }

  private static String text(JsonArray array) {
    return array == null ? null : array.encode();
  }

  private static ScheduleRun run(Row row, boolean whole) {
    String comparison = row.getString(7);
    return new ScheduleRun(row.getString(0), row.getString(1), row.getString(2), row.getString(3), row.getString(4),
        row.getString(5), whole ? array(row, 15) : null, whole ? array(row, 16) : null,
        row.getString(6), comparison == null ? null : new JsonObject(comparison), row.getInteger(8) != 0,
        row.getString(9), row.getInteger(10), row.getString(11), row.getString(12), row.getString(13),
        row.getString(14));
  }

  private static JsonArray array(Row row, int column) {
    String text = row.getString(column);
    return text == null ? null : new JsonArray(text);
  }
}
