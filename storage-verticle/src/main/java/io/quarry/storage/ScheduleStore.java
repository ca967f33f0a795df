package io.quarry.storage;

import io.quarry.bus.Cadence;
import io.quarry.bus.QuarryException;
import io.quarry.bus.Schedule;
import io.quarry.bus.ScheduleOps;
import io.quarry.bus.ScheduleOps.Claim;
import io.quarry.bus.ScheduleOps.Lease;
import io.quarry.bus.ScheduleOps.NewSchedule;
import io.quarry.bus.ScheduleOps.ScheduleRef;
import io.quarry.bus.ScheduleOps.UpdateSchedule;
import io.quarry.bus.ScheduleRun;
import io.quarry.bus.Scopes.UserRef;
import io.quarry.bus.Timestamps;
import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import java.time.ZoneId;
import java.util.List;

/**
 * Scheduled questions, the user's own: made (at most {@link ScheduleOps#MAX_PER_USER}), listed, paused, removed; and
 * for the schedulers, claimed under a lease by one atomic update (two nodes claiming at once: one gets each schedule;
 * a lease that expired, its node dead, is taken over), renewed and released. Their runs are in {@link ScheduleRuns}.
 */
final class ScheduleStore {

  static final String COLUMNS = "s.id, s.user_id, s.target_kind, s.target_id, s.conversation_id, s.sql, s.every,"
      + " s.at_hour, s.at_minute, s.weekday, s.time_zone, s.webhook_url, s.next_run_at, s.paused, s.created_at";

  /** Where {@code s.webhook_secret} stands when it follows {@link #COLUMNS}. */
  static final int SECRET = 15;

  private final Db db;

  ScheduleStore(Db db) {
    this.db = db;
  }

  /** The user's row is locked for the count, so that two creations at once cannot both pass the limit. */
  Future<Schedule> create(NewSchedule request) {
    Schedule s = request.schedule();
    String id = Db.idOr(s.id());
    return db.tx(conn -> db.one(conn, "Conversation not found", "SELECT c.id FROM users u JOIN conversations c"
            + " ON c.user_id = u.id WHERE u.id = ? AND c.id = ? FOR UPDATE", s.userId(), s.conversationId())
        .compose(mine -> db.exists(conn, "SELECT 1 FROM schedules WHERE id = ? AND user_id = ?", id, s.userId()))
        .compose(made -> made ? Future.succeededFuture() : insert(conn, s, id))
        .compose(v -> one(conn, id, s.userId(), false)));
  }

  private Future<Void> insert(SqlConnection conn, Schedule s, String id) {
    return db.one(conn, "User not found", "SELECT count(*) FROM schedules WHERE user_id = ?", s.userId())
        .compose(count -> {
          if (count.getLong(0) >= ScheduleOps.MAX_PER_USER) {
            return Future.failedFuture(QuarryException.badRequest(ScheduleOps.TOO_MANY));
          }
          Cadence c = s.cadence();
          return db.run(conn, "INSERT INTO schedules (id, user_id, conversation_id, target_kind, target_id, sql, every,"
                  + " at_hour, at_minute, weekday, time_zone, webhook_url, webhook_secret, next_run_at, paused,"
                  + " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?)", id, s.userId(),
              s.conversationId(), s.targetKind(), s.targetId(), s.sql(), c.every(), c.hour(), c.minute(),
              c.weekday(), c.zone().getId(), s.webhookUrl(), s.webhookSecret(), s.nextRunAt(), Timestamps.now())
              .mapEmpty();
        });
  }

  Future<List<Schedule>> list(UserRef user) {
    return db.run("SELECT " + COLUMNS + " FROM schedules s WHERE s.user_id = ? ORDER BY s.created_at, s.id",
        user.userId()).map(rows -> Db.each(rows, row -> schedule(row, null)));
  }

  Future<Schedule> get(ScheduleRef ref) {
    return one(db.pool(), ref.scheduleId(), ref.userId(), false);
  }

  Future<Schedule> update(UpdateSchedule r) {
    Integer paused = r.paused() == null ? null : r.paused() ? 1 : 0;
    return Db.changed(db.run("UPDATE schedules SET paused = coalesce(?, paused), next_run_at = coalesce(?,"
            + " next_run_at) WHERE id = ? AND user_id = ?", paused, r.nextRunAt(), r.scheduleId(), r.userId()),
        ScheduleOps.NOT_FOUND).compose(v -> one(db.pool(), r.scheduleId(), r.userId(), false));
  }

  Future<Void> delete(ScheduleRef ref) {
    return Db.changed(db.run("DELETE FROM schedules WHERE id = ? AND user_id = ?", ref.scheduleId(), ref.userId()),
        ScheduleOps.NOT_FOUND);
  }

  /**
   * One statement takes every due, unpaused schedule whose lease is free or past, so that of two claimers each
   * schedule goes to one (PostgreSQL re-checks the condition on the row the other just updated; SQLite has one
   * writer); the claim's owner reads back what it took, with the secrets it signs with.
   */
  Future<List<Schedule>> claim(Claim c) {
    return db.run("UPDATE schedules SET lease_owner = ?, lease_until = ? WHERE paused = 0 AND next_run_at <= ?"
            + " AND (lease_until IS NULL OR lease_until < ?)", c.owner(), c.leaseUntil(), c.now(), c.now())
        .compose(updated -> db.run("SELECT " + COLUMNS + ", s.webhook_secret FROM schedules s WHERE s.lease_owner = ?"
            + " ORDER BY s.next_run_at, s.id", c.owner()))
        .map(rows -> Db.each(rows, row -> schedule(row, row.getString(SECRET))));
  }

  Future<Void> renew(Lease lease) {
    return Db.changed(db.run("UPDATE schedules SET lease_until = ? WHERE id = ? AND lease_owner = ?", lease.until(),
        lease.scheduleId(), lease.owner()), "This node no longer holds the schedule's lease");
  }

  /** A lease another node took over meanwhile stays that node's. */
  Future<Void> release(Lease lease) {
    return db.run("UPDATE schedules SET next_run_at = ?, lease_owner = NULL, lease_until = NULL WHERE id = ?"
        + " AND lease_owner = ?", lease.until(), lease.scheduleId(), lease.owner()).mapEmpty();
  }

  private Future<Schedule> one(io.vertx.sqlclient.SqlClient client, String id, String userId, boolean secret) {
    return db.one(client, ScheduleOps.NOT_FOUND, "SELECT " + COLUMNS + ", s.webhook_secret FROM schedules s"
        + " WHERE s.id = ? AND s.user_id = ?", id, userId)
        .map(row -> schedule(row, secret ? row.getString(SECRET) : null));
  }

  /** A row of {@link #COLUMNS} (and the secret, at {@link #SECRET}, when it was selected). */
  static Schedule schedule(Row row, String secret) {
    Cadence cadence = new Cadence(row.getString(6), row.getInteger(7), row.getInteger(8), row.getInteger(9),
        ZoneId.of(row.getString(10)));
    return new Schedule(row.getString(0), row.getString(1), row.getString(2), row.getString(3), row.getString(4),
        row.getString(5), cadence, row.getString(11), secret, row.getString(12), row.getInteger(13) != 0,
        row.getString(14));
  }
}
