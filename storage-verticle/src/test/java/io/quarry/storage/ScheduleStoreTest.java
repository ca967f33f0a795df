package io.quarry.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.Bus;
import io.quarry.bus.Cadence;
import io.quarry.bus.Conversation;
import io.quarry.bus.Failure;
import io.quarry.bus.Schedule;
import io.quarry.bus.ScheduleOps;
import io.quarry.bus.ScheduleOps.Claim;
import io.quarry.bus.ScheduleOps.Delivery;
import io.quarry.bus.ScheduleOps.Lease;
import io.quarry.bus.ScheduleOps.NewSchedule;
import io.quarry.bus.ScheduleOps.Pending;
import io.quarry.bus.ScheduleOps.RunStart;
import io.quarry.bus.ScheduleOps.ScheduleRef;
import io.quarry.bus.ScheduleOps.StartRun;
import io.quarry.bus.ScheduleOps.UpdateSchedule;
import io.quarry.bus.ScheduleRun;
import io.quarry.bus.Scopes.UserRef;
import io.quarry.bus.User;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Scheduled questions in storage, on SQLite and on PostgreSQL: the user's own only, at most twenty, claimed by one
 * node of two claiming at once, taken over when a lease expires, one run per due time, retries claimed once.
 */
class ScheduleStoreTest extends StorageTestBase {

  private static final String T0 = "2026-03-02T09:00:00.000Z";
  private static final String T1 = "2026-03-02T09:00:30.000Z";
  private static final String T2 = "2026-03-02T09:02:00.000Z";
  private static final String LEASE = "2026-03-02T09:01:00.000Z";

  private Bus bus;
  private Conversation conversation;

  @BeforeEach
  void bus() {
    bus = new Bus(vertx);
    conversation = storage.createConversation(alice.id(), "Sales").await();
  }

  private Schedule schedule(User user, Conversation c, String nextRunAt, String secret) {
    return new Schedule(UUID.randomUUID().toString(), user.id(), Schedule.RESULT, UUID.randomUUID().toString(),
        c.id(), "SELECT 1", Cadence.of("daily", "09:00", null, "Europe/Paris"), secret == null ? null
        : "https://hooks.example.com/q", secret, nextRunAt, false, null);
  }

  private Schedule create(Schedule s) {
    return ScheduleOps.CREATE.call(bus, new NewSchedule(s)).await();
  }

  @Test
  @DisplayName("a schedule is made, listed, read, paused and removed by its user; its secret is never read back;"
      + " another user's is not found and stays as it was")
  void ownersOnly() {
    Schedule made = create(schedule(alice, conversation, T0, "s3cret"));
    assertThat(made.webhookSecret()).isNull();
    assertThat(made.cadence().at()).isEqualTo("09:00");
    assertThat(made.cadence().zone().getId()).isEqualTo("Europe/Paris");
    assertThat(ScheduleOps.LIST.call(bus, new UserRef(alice.id())).await()).extracting(Schedule::id)
        .containsExactly(made.id());
    assertThat(ScheduleOps.LIST.call(bus, new UserRef(bob.id())).await()).isEmpty();

    ScheduleRef bobs = new ScheduleRef(bob.id(), made.id());
    assertFails(ScheduleOps.GET.call(bus, bobs), Failure.NOT_FOUND, ScheduleOps.NOT_FOUND);
    assertFails(ScheduleOps.UPDATE.call(bus, new UpdateSchedule(bob.id(), made.id(), true, null)), Failure.NOT_FOUND,
        ScheduleOps.NOT_FOUND);
    assertFails(ScheduleOps.DELETE.call(bus, bobs), Failure.NOT_FOUND, ScheduleOps.NOT_FOUND);
    assertFails(ScheduleOps.RUNS.call(bus, bobs), Failure.NOT_FOUND, ScheduleOps.NOT_FOUND);
    assertFails(ScheduleOps.CREATE.call(bus, new NewSchedule(schedule(bob, conversation, T0, null))),
        Failure.NOT_FOUND, "Conversation not found");
    assertThat(ScheduleOps.GET.call(bus, new ScheduleRef(alice.id(), made.id())).await().paused()).isFalse();

    Schedule paused = ScheduleOps.UPDATE.call(bus, new UpdateSchedule(alice.id(), made.id(), true, null)).await();
    assertThat(paused.paused()).isTrue();
    assertThat(paused.nextRunAt()).isEqualTo(T0);
    ScheduleOps.DELETE.call(bus, new ScheduleRef(alice.id(), made.id())).await();
    assertThat(ScheduleOps.LIST.call(bus, new UserRef(alice.id())).await()).isEmpty();
  }

  @Test
  @DisplayName("a user may have twenty schedules; the twenty-first is refused with 'Maximum 20 scheduled questions"
      + " reached'; a second delivery of one made finds it made")
  void limit() {
    Schedule first = null;
    for (int i = 0; i < ScheduleOps.MAX_PER_USER; i++) {
      Schedule made = create(schedule(alice, conversation, T0, null));
      first = first == null ? made : first;
    }
    assertThat(create(first).id()).isEqualTo(first.id());
    assertFails(ScheduleOps.CREATE.call(bus, new NewSchedule(schedule(alice, conversation, T0, null))),
        Failure.BAD_REQUEST, "Maximum 20 scheduled questions reached");
    assertThat(ScheduleOps.LIST.call(bus, new UserRef(alice.id())).await()).hasSize(20);
  }

  @Test
  @DisplayName("of two nodes claiming at once each due schedule goes to exactly one; one not yet due, or paused, goes"
      + " to none; the claim carries the webhook's secret")
  void claimIsAtomic() {
    List<String> due = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      due.add(create(schedule(alice, conversation, T0, "secret-" + i)).id());
    }
    create(schedule(alice, conversation, T2, null));
    Schedule paused = create(schedule(alice, conversation, T0, null));
    ScheduleOps.UPDATE.call(bus, new UpdateSchedule(alice.id(), paused.id(), true, null)).await();

    List<List<Schedule>> claims = Future.all(ScheduleOps.CLAIM.call(bus, new Claim("node-a:1", T1, LEASE)),
        ScheduleOps.CLAIM.call(bus, new Claim("node-b:1", T1, LEASE))).await().list();
    List<String> taken = new ArrayList<>();
    claims.forEach(claim -> claim.forEach(s -> taken.add(s.id())));
    assertThat(taken).containsExactlyInAnyOrderElementsOf(due);
    assertThat(claims.get(0).get(0).webhookSecret()).startsWith("secret-");
    assertThat(ScheduleOps.CLAIM.call(bus, new Claim("node-c:1", T1, LEASE)).await()).isEmpty();
  }

  @Test
  @DisplayName("a lease that expired (its node died) is taken over by the next claim after it, not before; the dead"
      + " node can neither renew nor release it")
  void expiredLeaseIsTakenOver() {
    Schedule s = create(schedule(alice, conversation, T0, null));
    assertThat(ScheduleOps.CLAIM.call(bus, new Claim("node-a:1", T0, LEASE)).await()).hasSize(1);
    assertThat(ScheduleOps.CLAIM.call(bus, new Claim("node-b:1", T1, "2026-03-02T09:01:30.000Z")).await()).isEmpty();
    assertThat(ScheduleOps.CLAIM.call(bus, new Claim("node-b:2", LEASE, "2026-03-02T09:02:00.000Z")).await())
        .isEmpty();
    List<Schedule> taken = ScheduleOps.CLAIM.call(bus, new Claim("node-b:3", T2, "2026-03-02T09:03:00.000Z")).await();
    assertThat(taken).extracting(Schedule::id).containsExactly(s.id());

    assertFails(ScheduleOps.RENEW.call(bus, new Lease(s.id(), "node-a:1", "2026-03-02T09:05:00.000Z")),
        Failure.NOT_FOUND, "This node no longer holds the schedule's lease");
    ScheduleOps.RELEASE.call(bus, new Lease(s.id(), "node-a:1", "2026-03-03T08:00:00.000Z")).await();
    assertThat(ScheduleOps.GET.call(bus, new ScheduleRef(alice.id(), s.id())).await().nextRunAt()).isEqualTo(T0);
    ScheduleOps.RENEW.call(bus, new Lease(s.id(), "node-b:3", "2026-03-02T09:05:00.000Z")).await();
    ScheduleOps.RELEASE.call(bus, new Lease(s.id(), "node-b:3", "2026-03-03T08:00:00.000Z")).await();
    assertThat(ScheduleOps.GET.call(bus, new ScheduleRef(alice.id(), s.id())).await().nextRunAt())
        .isEqualTo("2026-03-03T08:00:00.000Z");
  }

  @Test
  @DisplayName("a due time has one run whoever starts it: a second start finds it (finished, with its rows), and the"
      + " next due time's run gets it as the run before")
  void oneRunPerDueTime() {
    Schedule s = create(schedule(alice, conversation, T0, "k"));
    RunStart first = Future.all(ScheduleOps.RUN_START.call(bus, new StartRun(s.id(), T0, UUID.randomUUID().toString(),
        true)), ScheduleOps.RUN_START.call(bus, new StartRun(s.id(), T0, UUID.randomUUID().toString(), true)))
        .await().<RunStart>resultAt(0);
    RunStart again = ScheduleOps.RUN_START.call(bus, new StartRun(s.id(), T0, UUID.randomUUID().toString(), true))
        .await();
    assertThat(again.run().id()).isEqualTo(first.run().id());
    assertThat(first.previous()).isNull();
    assertThat(first.run().status()).isEqualTo(ScheduleRun.RUNNING);
    assertThat(first.run().webhookState()).isEqualTo(ScheduleRun.PENDING);

    JsonArray rows = new JsonArray().add(new JsonArray().add("north").add(1204));
    ScheduleRun ended = ScheduleOps.RUN_FINISH.call(bus, first.run().ended(ScheduleRun.OK, null, null,
        new JsonArray().add(new JsonObject().put("name", "region").put("type", "VARCHAR")), rows, "First run",
        new JsonObject().put("first", true), T1)).await();
    assertThat(ended.status()).isEqualTo(ScheduleRun.OK);
    ScheduleRun late = ScheduleOps.RUN_FINISH.call(bus, first.run().ended(ScheduleRun.FAILED, "late", null, null,
        null, null, null, T2)).await();
    assertThat(late.status()).as("a run already ended stays as it ended").isEqualTo(ScheduleRun.OK);

    RunStart taken = ScheduleOps.RUN_START.call(bus, new StartRun(s.id(), T0, UUID.randomUUID().toString(), true))
        .await();
    assertThat(taken.run().finished()).isTrue();
    assertThat(taken.run().rows()).isEqualTo(rows);
    RunStart next = ScheduleOps.RUN_START.call(bus, new StartRun(s.id(), "2026-03-03T08:00:00.000Z",
        UUID.randomUUID().toString(), false)).await();
    assertThat(next.previous().id()).isEqualTo(first.run().id());
    assertThat(next.previous().rows()).isEqualTo(rows);
    assertThat(next.run().webhookState()).isEqualTo(ScheduleRun.NONE);
    List<ScheduleRun> listed = ScheduleOps.RUNS.call(bus, new ScheduleRef(alice.id(), s.id())).await();
    assertThat(listed).extracting(ScheduleRun::dueAt).containsExactly("2026-03-03T08:00:00.000Z", T0);
    assertThat(listed.get(1).summary()).isEqualTo("First run");
    assertThat(listed.get(1).rows()).isNull();
  }

  @Test
  @DisplayName("a webhook delivery due again is claimed by one node of two, not before its time, with the secret")
  void retriesClaimedOnce() {
    Schedule s = create(schedule(alice, conversation, T0, "k"));
    ScheduleRun run = ScheduleOps.RUN_START.call(bus, new StartRun(s.id(), T0, null, true)).await().run();
    ScheduleOps.RUN_FINISH.call(bus, run.ended(ScheduleRun.FAILED, "Table not found", null, null, null, null, null,
        T0)).await();
    ScheduleOps.RUN_DELIVERED.call(bus, new Delivery(run.id(), true, ScheduleRun.PENDING, 1, T2, "HTTP 500")).await();

    assertThat(ScheduleOps.RETRIES_CLAIM.call(bus, new Claim("a:1", T1, LEASE)).await()).isEmpty();
    List<List<Pending>> claims = Future.all(ScheduleOps.RETRIES_CLAIM.call(bus, new Claim("a:2", T2,
        "2026-03-02T09:03:00.000Z")), ScheduleOps.RETRIES_CLAIM.call(bus, new Claim("b:2", T2,
        "2026-03-02T09:03:00.000Z"))).await().list();
    List<Pending> all = new ArrayList<>(claims.get(0));
    all.addAll(claims.get(1));
    assertThat(all).hasSize(1);
    assertThat(all.get(0).run().attempts()).isEqualTo(1);
    assertThat(all.get(0).run().reason()).isEqualTo("Table not found");
    assertThat(all.get(0).schedule().webhookSecret()).isEqualTo("k");
  }
}
