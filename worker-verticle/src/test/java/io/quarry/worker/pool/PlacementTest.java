package io.quarry.worker.pool;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.Failure;
import io.quarry.bus.LocalWorkerStatus;
import io.quarry.bus.QuarryException;
import io.quarry.bus.QueryRequest;
import io.quarry.bus.WorkerClient;
import io.quarry.testing.Failures;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.junit5.VertxExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Where a node's queries go, with members that answer when the test says: on a member with room, else waiting
 * (users in turn, each until its own limit), "Server busy" only past the node's queue, and once more elsewhere
 * when the member dies under it.
 */
@ExtendWith(VertxExtension.class)
class PlacementTest {

  static final long LIMIT_MS = 10_000;

  /** A member whose queries stay running until the test answers them. */
  static final class FakeMember implements Member {
    final int slot;
    boolean ready = true;
    final List<Run> runs = new ArrayList<>();
    /** The first query placed here. */
    final Promise<Run> firstRun = Promise.promise();

    record Run(QueryRequest query, long timeoutMs, Promise<Buffer> answer) {
    }

    FakeMember(int slot) {
      this.slot = slot;
    }

    @Override
    public void start() {
    }

    @Override
    public int slot() {
      return slot;
    }

    @Override
    public boolean isReady() {
      return ready;
    }

    @Override
    public int load() {
      return (int) runs.stream().filter(r -> !r.answer().future().isComplete()).count();
    }

    @Override
    public Future<Buffer> run(QueryRequest query, long timeoutMs) {
      Run run = new Run(query, timeoutMs, Promise.promise());
      runs.add(run);
      firstRun.tryComplete(run);
      return run.answer().future();
    }

    @Override
    public LocalWorkerStatus status() {
      return new LocalWorkerStatus("fake-" + slot, ready ? "ready" : "restarting", null, 0, load(), null, null, null);
    }

    @Override
    public Future<Void> stop() {
      return Future.succeededFuture();
    }

    /** The oldest query still running here, answered with its own SQL. */
    void answerOldest() {
      Run run = runs.stream().filter(r -> !r.answer().future().isComplete()).findFirst().orElseThrow();
      run.answer().complete(Buffer.buffer(run.query().sql()));
    }
  }

  Context context;
  List<Member> members;
  /** Times the placement told its pool a query came (which may start a member). */
  final java.util.concurrent.atomic.AtomicInteger demands = new java.util.concurrent.atomic.AtomicInteger();
  FakeMember first;
  FakeMember second;

  @BeforeEach
  void start(Vertx vertx) {
    context = vertx.getOrCreateContext();
    first = new FakeMember(1);
    second = new FakeMember(2);
  }

  /** Runs on the placement's context, as its pool does, and waits for the outcome. */
  private <T> T on(Callable<T> action) {
    Promise<T> done = Promise.promise();
    context.runOnContext(v -> {
      try {
        done.complete(action.call());
      } catch (Exception e) {
        done.fail(e);
      }
    });
    return done.future().await();
  }

  private void inContext(Runnable action) {
    on(() -> {
      action.run();
      return null;
    });
  }

  private Placement placement(int room, int queueMax, FakeMember... given) {
    return placement(room, queueMax, 0, given);
  }

  private Placement placement(int room, int queueMax, long startWaitMs, FakeMember... given) {
    return placement(room, queueMax, startWaitMs, Placement.KEEP_HOME_MS, given);
  }

  private Placement placement(int room, int queueMax, long startWaitMs, long keepHomeMs, FakeMember... given) {
    members = new ArrayList<>(List.of(given));
    return new Placement(context.owner(), members, room, queueMax, startWaitMs, demands::incrementAndGet, keepHomeMs);
  }

  private static QueryRequest query(String user, String sql) {
    return new QueryRequest(sql, Map.of("t", "https://data.example.com/" + user + ".parquet"), LIMIT_MS, user, "");
  }

  private Future<Buffer> ask(Placement placement, String user, String sql, long limitMs) {
    return on(() -> placement.run(query(user, sql), limitMs));
  }

  @Test
  @DisplayName("queries past the members' room wait and all run as room frees: none is refused")
  void waitInsteadOfRefusing() {
    Placement placement = placement(1, 10, first);
    List<Future<Buffer>> answers = new ArrayList<>();
    for (int i = 1; i <= 5; i++) {
      answers.add(ask(placement, "alice", "q" + i, LIMIT_MS));
    }
    assertThat(on(() -> placement.waiting())).isEqualTo(4);
    for (int i = 0; i < 5; i++) {
      inContext(first::answerOldest);
    }
    assertThat(Future.all(answers).await().<Buffer>list()).extracting(Buffer::toString)
        .containsExactly("q1", "q2", "q3", "q4", "q5");
  }

  @Test
  @DisplayName("the node holds localWorkers.queueSize waiting queries: the one at the limit waits, the next is "
      + "refused with 'Server busy, try again shortly'")
  void busyPastTheQueue() {
    Placement placement = placement(1, 2, first);
    ask(placement, "alice", "running", LIMIT_MS);
    Future<Buffer> atTheLimit = ask(placement, "alice", "waits", LIMIT_MS);
    ask(placement, "bob", "waits too", LIMIT_MS);

    Throwable refused = Failures.failure(ask(placement, "carol", "refused", LIMIT_MS));

    assertThat(Failure.classify(refused)).isEqualTo(Failure.UNAVAILABLE);
    assertThat(Failure.messageOf(refused)).isEqualTo(WorkerClient.BUSY);
    inContext(first::answerOldest);
    inContext(first::answerOldest);
    assertThat(atTheLimit.await().toString()).isEqualTo("waits");
  }

  @Test
  @DisplayName("one user's burst cannot starve another's single query: users take turns, so it waits for one query "
      + "of the burst, not for all of it")
  void fairBetweenUsers() {
    Placement placement = placement(1, 10, first);
    for (int i = 1; i <= 5; i++) {
      ask(placement, "alice", "alice " + i, LIMIT_MS);
    }
    Future<Buffer> bob = ask(placement, "bob", "bob 1", LIMIT_MS);
    for (int i = 0; i < 6; i++) {
      inContext(first::answerOldest);
    }
    assertThat(bob.await().toString()).isEqualTo("bob 1");
    assertThat(first.runs).extracting(r -> r.query().sql())
        .containsExactly("alice 1", "alice 2", "bob 1", "alice 3", "alice 4", "alice 5");
  }

  @Test
  @DisplayName("a query that waits past its own limit fails with the timeout message, saying it waited for a worker")
  void waitsUntilItsDeadline() {
    Placement placement = placement(1, 10, first);
    ask(placement, "alice", "running", LIMIT_MS);

    Throwable late = Failures.failure(ask(placement, "bob", "waits", 100));

    assertThat(Failure.classify(late)).isEqualTo(Failure.TIMEOUT);
    assertThat(Failure.messageOf(late)).isEqualTo(WorkerClient.timedOut(100, Placement.WAITED));
    assertThat(on(() -> placement.waiting())).isZero();
    assertThat(first.runs).hasSize(1);
  }

  @Test
  @DisplayName("a query that waited runs with what is left of its limit; if that runs out, its caller hears the limit "
      + "it was given")
  void waitedQueryKeepsItsDeadline() {
    Placement placement = placement(1, 10, first);
    ask(placement, "alice", "running", LIMIT_MS);
    Future<Buffer> waited = ask(placement, "bob", "waited", LIMIT_MS);
    inContext(first::answerOldest);
    FakeMember.Run run = on(() -> first.runs.get(1));
    assertThat(run.timeoutMs()).isLessThan(LIMIT_MS).isEqualTo(run.query().timeoutMs());
    inContext(() -> run.answer().fail(new QuarryException(Failure.TIMEOUT, WorkerClient.timedOut(run.timeoutMs(),
        ""))));

    Throwable late = Failures.failure(waited);

    assertThat(Failure.classify(late)).isEqualTo(Failure.TIMEOUT);
    assertThat(Failure.messageOf(late)).isEqualTo(WorkerClient.timedOut(LIMIT_MS, ""));
  }

  @Test
  @DisplayName("while no member is ready a query waits for one; if none comes in time: 'No query worker available'")
  void noMemberReady() {
    first.ready = false;
    Placement placement = placement(1, 10, first);
    Future<Buffer> waiting = ask(placement, "alice", "waits for a restart", LIMIT_MS);
    Throwable none = Failures.failure(ask(placement, "bob", "gives up", 100));
    assertThat(Failure.classify(none)).isEqualTo(Failure.UNAVAILABLE);
    assertThat(Failure.messageOf(none)).isEqualTo(WorkerClient.NO_WORKER);

    inContext(() -> {
      first.ready = true;
      placement.drain();
      first.answerOldest();
    });
    assertThat(waiting.await().toString()).isEqualTo("waits for a restart");
  }

  @Test
  @DisplayName("the pool hears of every query placed or queued: it starts members as queries need them")
  void demandHeard() {
    Placement placement = placement(1, 10, first);
    ask(placement, "alice", "runs", LIMIT_MS);
    ask(placement, "alice", "waits", LIMIT_MS);
    assertThat(demands).hasValue(2);
  }

  @Test
  @DisplayName("a query that waits while no member is ready yet (its worker process starting) gets its whole limit "
      + "once one is: the start, up to localWorkers.startTimeoutMs, does not count against it")
  void startDoesNotCount(Vertx vertx) {
    first.ready = false;
    Placement placement = placement(1, 10, 10_000, first);
    Future<Buffer> waiting = ask(placement, "alice", "waits for a start", 100);
    // The worker is ready well after the query's own limit would have passed.
    vertx.setTimer(300, t -> context.runOnContext(v -> {
      first.ready = true;
      placement.drain();
    }));
    FakeMember.Run run = first.firstRun.future().await();
    assertThat(run.timeoutMs()).isEqualTo(100);
    inContext(first::answerOldest);
    assertThat(waiting.await().toString()).isEqualTo("waits for a start");
  }

  @Test
  @DisplayName("a query waiting for a member that never starts gives up after its limit and the start wait: "
      + "'No query worker available'")
  void startNeverComes() {
    first.ready = false;
    Placement placement = placement(1, 10, 200, first);
    Throwable none = Failures.failure(ask(placement, "alice", "waits", 100));
    assertThat(Failure.classify(none)).isEqualTo(Failure.UNAVAILABLE);
    assertThat(Failure.messageOf(none)).isEqualTo(WorkerClient.NO_WORKER);
  }

  private static QueryRequest inConversation(String conversation, String sql) {
    return new QueryRequest(sql, Map.of("t", "https://data.example.com/" + conversation + ".parquet"), LIMIT_MS,
        "alice", conversation);
  }

  /** A conversation whose work, remembered nowhere yet, goes to {@code home} when both members have room. */
  private String conversationAt(FakeMember home) {
    return java.util.stream.IntStream.iterate(0, c -> c + 1).mapToObj(c -> "conversation-" + c)
        .filter(c -> new Affinity().choose(List.of(first, second), inConversation(c, "")).orElseThrow() == home)
        .findFirst().orElseThrow();
  }

  private Future<Buffer> ask(Placement placement, String conversation, String sql) {
    return on(() -> placement.run(inConversation(conversation, sql), LIMIT_MS));
  }

  /** Conversations at home on the first member and on the second ({@link #bothBusyThenA2}). */
  String atFirst;
  String atSecond;

  /** With room for one query each: a1 runs on the first member and b1 on the second, their homes; a2 then waits. */
  private Future<Buffer> bothBusyThenA2(Placement placement) {
    atFirst = conversationAt(first);
    atSecond = conversationAt(second);
    ask(placement, atFirst, "a1");
    ask(placement, atSecond, "b1");
    return ask(placement, atFirst, "a2");
  }

  private static List<String> sqlOf(FakeMember member) {
    return member.runs.stream().map(r -> r.query().sql()).toList();
  }

  @Test
  @DisplayName("under load a waiting query keeps to its conversation's process: a member with room takes the first "
      + "waiting query whose conversation is at home there, not the first in line, which waits for its own")
  void waitingQueriesKeepToTheirProcess() {
    // However slowly this machine asks, the second conversation's query came soon enough after the first's.
    Placement placement = placement(1, 10, 0, LIMIT_MS, first, second);
    Future<Buffer> a2 = bothBusyThenA2(placement);
    Future<Buffer> b2 = ask(placement, atSecond, "b2");

    inContext(second::answerOldest); // b2 starts there; a2 waits for the first member
    inContext(first::answerOldest);
    inContext(second::answerOldest);
    inContext(first::answerOldest);

    assertThat(on(() -> sqlOf(first))).containsExactly("a1", "a2");
    assertThat(on(() -> sqlOf(second))).containsExactly("b1", "b2");
    assertThat(Future.all(a2, b2).await().<Buffer>list()).extracting(Buffer::toString).containsExactly("a2", "b2");
  }

  @Test
  @DisplayName("the first in line, its process held up, moves to a member with room once a query at home there came "
      + "more than keepHomeMs after it")
  void overtakenQueryMoves() {
    Placement placement = placement(1, 10, 0, 0, first, second);
    Future<Buffer> a2 = bothBusyThenA2(placement);
    ask(placement, atSecond, "b2");

    inContext(second::answerOldest);

    assertThat(on(() -> sqlOf(second))).containsExactly("b1", "a2");
    inContext(second::answerOldest);
    assertThat(a2.await().toString()).isEqualTo("a2");
  }

  @Test
  @DisplayName("a member with room whose conversations have nothing waiting takes the first in line: no member idles "
      + "while queries wait")
  void noMemberIdlesWhileQueriesWait() {
    Placement placement = placement(1, 10, first, second);
    Future<Buffer> a2 = bothBusyThenA2(placement);
    ask(placement, atFirst, "a3");

    inContext(second::answerOldest);

    assertThat(on(() -> sqlOf(second))).containsExactly("b1", "a2");
    assertThat(on(() -> placement.waiting())).isEqualTo(1);
    inContext(second::answerOldest);
    assertThat(a2.await().toString()).isEqualTo("a2");
  }

  /** As a worker process does when it dies: not ready any more, then its queries hear why. */
  private void dies(FakeMember member, boolean memory) {
    inContext(() -> {
      member.ready = false;
      QuarryException failure = memory ? new QuarryException(Failure.SQL, WorkerClient.OUT_OF_MEMORY)
          : new QuarryException(Failure.INTERNAL, WorkerClient.STOPPED);
      member.runs.stream().filter(r -> !r.answer().future().isComplete()).toList()
          .forEach(r -> r.answer().fail(new MemberDied(failure, !memory)));
    });
  }

  private FakeMember runningOn() {
    return on(() -> first.load() == 1 ? first : second);
  }

  private FakeMember otherThan(FakeMember member) {
    return member == first ? second : first;
  }

  @Test
  @DisplayName("a query whose member died under it runs once more on another member, within what is left of its "
      + "limit, and its caller gets that answer")
  void runsAgainElsewhere() {
    Placement placement = placement(2, 10, first, second);
    Future<Buffer> answer = ask(placement, "alice", "SELECT 1", LIMIT_MS);
    FakeMember died = runningOn();
    FakeMember other = otherThan(died);

    dies(died, false);

    assertThat(other.runs).hasSize(1);
    assertThat(other.runs.get(0).timeoutMs()).isLessThanOrEqualTo(died.runs.get(0).timeoutMs());
    inContext(other::answerOldest);
    assertThat(answer.await().toString()).isEqualTo("SELECT 1");
  }

  @Test
  @DisplayName("a query whose member died waits for another even when the node's queue is full: it was admitted "
      + "already, so it is not turned away as busy")
  void retryIsNotRefusedByAFullQueue() {
    Placement placement = placement(1, 1, first, second);
    Future<Buffer> answer = ask(placement, "alice", "SELECT 1", LIMIT_MS);
    FakeMember died = runningOn();
    FakeMember other = otherThan(died);
    ask(placement, "bob", "keeps the other member busy", LIMIT_MS);
    ask(placement, "carol", "fills the queue", LIMIT_MS);

    dies(died, false);
    inContext(other::answerOldest); // bob's: the retried one starts

    assertThat(on(() -> sqlOf(other))).containsExactly("keeps the other member busy", "SELECT 1");
    inContext(other::answerOldest);
    assertThat(answer.await().toString()).isEqualTo("SELECT 1");
  }

  @Test
  @DisplayName("a query whose member died under it had its turn: it runs again before the queries that were waiting, "
      + "which keep their order after it")
  void retriedQueryGoesFirst() {
    Placement placement = placement(1, 10, first, second);
    Future<Buffer> answer = ask(placement, "alice", "SELECT 1", LIMIT_MS);
    FakeMember died = runningOn();
    FakeMember other = otherThan(died);
    ask(placement, "bob", "bob 1", LIMIT_MS);
    ask(placement, "carol", "carol 1", LIMIT_MS);
    ask(placement, "bob", "bob 2", LIMIT_MS);

    dies(died, false);
    for (int i = 0; i < 4; i++) {
      inContext(other::answerOldest);
    }

    assertThat(on(() -> sqlOf(other))).containsExactly("bob 1", "SELECT 1", "carol 1", "bob 2");
    assertThat(answer.await().toString()).isEqualTo("SELECT 1");
  }

  @Test
  @DisplayName("a query whose second member dies too fails with 'The query worker stopped unexpectedly'")
  void diesTwice() {
    Placement placement = placement(2, 10, first, second);
    Future<Buffer> answer = ask(placement, "alice", "SELECT 1", LIMIT_MS);
    FakeMember died = runningOn();
    dies(died, false);
    dies(otherThan(died), false);

    Throwable failure = Failures.failure(answer);

    assertThat(Failure.classify(failure)).isEqualTo(Failure.INTERNAL);
    assertThat(Failure.messageOf(failure)).isEqualTo(WorkerClient.STOPPED);
    assertThat(first.runs.size() + second.runs.size()).isEqualTo(2);
  }

  @Test
  @DisplayName("a query whose member is seen to die only after the query's limit passed fails with the timeout message"
      + " (a frozen worker is dropped by the cluster after its query's limit), and is not run again")
  void diesPastItsLimit() {
    Placement placement = placement(2, 10, first, second);
    // A limit of none: it has passed by the time its member dies, however soon that is.
    Future<Buffer> answer = ask(placement, "alice", "SELECT 1", 0);
    dies(runningOn(), false);

    Throwable failure = Failures.failure(answer);

    assertThat(Failure.classify(failure)).isEqualTo(Failure.TIMEOUT);
    assertThat(Failure.messageOf(failure)).isEqualTo(WorkerClient.timedOut(0, ""));
    assertThat(first.runs.size() + second.runs.size()).isEqualTo(1);
  }

  @Test
  @DisplayName("a query whose member ran out of memory is not run again: it would most likely take the next down too")
  void memoryDeathIsNotRetried() {
    Placement placement = placement(2, 10, first, second);
    Future<Buffer> answer = ask(placement, "alice", "SELECT 1", LIMIT_MS);
    dies(runningOn(), true);

    Throwable failure = Failures.failure(answer);

    assertThat(Failure.classify(failure)).isEqualTo(Failure.SQL);
    assertThat(Failure.messageOf(failure)).isEqualTo(WorkerClient.OUT_OF_MEMORY);
    assertThat(first.runs.size() + second.runs.size()).isEqualTo(1);
  }
}
