package io.quarry.worker.pool;

import io.quarry.bus.Failure;
import io.quarry.bus.QuarryException;
import io.quarry.bus.QueryRequest;
import io.quarry.bus.WorkerClient;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Places each query on a member of its pool: the member its files live on while that one has room (see
 * {@link Affinity}), else the next one by the same order that has room; so a conversation's files and database
 * stay on one member, not copied to every member that happened to be less busy. When every member is full or
 * restarting, the query waits, its user's turn kept ({@link WaitingQueries}), until its member has room (or
 * another with no waiting query of its own that came soon after this one: see {@link #drain}) or its own time limit
 * passes; "Server busy" only once the node holds {@code localWorkers.queueSize} waiting queries. A query whose member
 * died under it runs once more on another member within what is left of its limit, ahead of the queries waiting.
 * Members start when queries need them ({@code demand}, told of every query placed); the time a query waits for the
 * first of them to start (up to {@code startWaitMs}) does not count against its limit. Lives on its pool's context
 * only.
 */
final class Placement {

  private static final Logger log = LoggerFactory.getLogger(Placement.class);
  static final String WAITED = " while waiting for a free worker";
  /**
   * How much longer than a query that keeps to its member the first in line may have waited before it leaves its own:
   * moving costs the other member a database (about 30 ms of CPU) and maybe a copy of the files. Under an even load of
   * 100 conversations on two members, queries wait about a second and those of one member trail the other's by up to
   * hundreds of milliseconds: at 100 ms they moved so often that the trivial query's p50 was 1,109 ms against 487 at
   * 1 s and 448 never moving, in one run of {@code bench/run.sh load}.
   */
  static final long KEEP_HOME_MS = 1_000;

  private final Vertx vertx;
  private final List<Member> members;
  private final int room;
  private final WaitingQueries<Queued> waiting;
  private final long startWaitMs;
  private final Runnable demand;
  private final long keepHomeMs;
  private final Affinity affinity = new Affinity();

  /**
   * @param room        queries a member is given at once (some wait on it, so it never idles between two)
   * @param queueMax    queries the node holds while no member has room
   * @param startWaitMs how long a query may wait, beyond its limit, while no member is ready yet
   * @param demand      told after each query is placed, or queued: it may start another member
   * @param keepHomeMs  see {@link #KEEP_HOME_MS}
   */
  Placement(Vertx vertx, List<Member> members, int room, int queueMax, long startWaitMs, Runnable demand,
      long keepHomeMs) {
    this.vertx = vertx;
    this.members = members;
    this.room = room;
    this.waiting = new WaitingQueries<>(queueMax);
    this.startWaitMs = startWaitMs;
    this.demand = demand;
    this.keepHomeMs = keepHomeMs;
  }

  /** One query on its way: its deadline holds through waiting and through a second try. */
  private static final class Queued {
    final QueryRequest query;
    final long limitMs;
    long deadlineNanos;
    final Promise<Buffer> answer = Promise.promise();
    long timer = -1;
    /** It waited or is on its second try: it runs with what is left of its limit, not all of it. */
    boolean delayed;
    boolean retried;
    /** It waits while no member is ready yet: its limit counts from when it can start. */
    boolean cold;
    /** When it last began waiting: a query at home on a free member may go before it if it came soon after. */
    long waitingSince;

    Queued(QueryRequest query, long limitMs) {
      this.query = query;
      this.limitMs = limitMs;
      this.deadlineNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(limitMs);
    }

    long remainingMs() {
      return TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime());
    }
  }

  /** Runs {@code query} within {@code limitMs}, from now. */
  Future<Buffer> run(QueryRequest query, long limitMs) {
    Queued queued = new Queued(query, limitMs);
    place(queued);
    demand.run();
    return queued.answer.future();
  }

  private void place(Queued q) {
    if (waiting.isEmpty() && start(q)) {
      return;
    }
    if (q.retried) {
      // It had its turn and its worker died under it: it goes first, and a full queue does not turn it away now.
      waiting.addFirst(q.query.userId(), q);
    } else if (!waiting.offer(q.query.userId(), q)) {
      q.answer.tryFail(new QuarryException(Failure.UNAVAILABLE, WorkerClient.BUSY));
      return;
    }
    q.delayed = true;
    q.waitingSince = System.nanoTime();
    q.cold = !q.retried && members.stream().noneMatch(Member::isReady);
    q.timer = vertx.setTimer(Math.max(1, q.remainingMs() + (q.cold ? startWaitMs : 0)), t -> expired(q));
  }

  private void expired(Queued q) {
    if (waiting.remove(q.query.userId(), q)) {
      q.answer.tryFail(members.stream().anyMatch(Member::isReady)
          ? new QuarryException(Failure.TIMEOUT, WorkerClient.timedOut(q.limitMs, WAITED))
          : new QuarryException(Failure.UNAVAILABLE, WorkerClient.NO_WORKER));
    }
  }

  /** On a member with room, if one has; false otherwise. */
  private boolean start(Queued q) {
    List<Member> open = members.stream().filter(this::hasRoom).toList();
    Optional<Member> member = affinity.choose(open, q.query);
    if (member.isEmpty()) {
      return false;
    }
    vertx.cancelTimer(q.timer);
    if (q.cold) {
      q.cold = false;
      q.delayed = false;
      q.deadlineNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(q.limitMs);
    }
    long runMs = q.delayed ? Math.max(1, q.remainingMs()) : q.limitMs;
    member.get().run(q.delayed ? q.query.withTimeout(runMs) : q.query, runMs).onComplete(done -> {
      finished(q, done);
      drain();
    });
    return true;
  }

  private boolean hasRoom(Member member) {
    return member.isReady() && member.load() < room;
  }

  private void finished(Queued q, AsyncResult<Buffer> done) {
    if (done.succeeded()) {
      q.answer.tryComplete(done.result());
    } else if (q.delayed && Failure.classify(done.cause()) == Failure.TIMEOUT) {
      // It ran with what was left: its caller hears the limit it was given, which has now passed.
      q.answer.tryFail(new QuarryException(Failure.TIMEOUT, WorkerClient.timedOut(q.limitMs, "")));
    } else if (!(done.cause() instanceof MemberDied died)) {
      q.answer.tryFail(done.cause());
    } else if (died.retryable && !q.retried && q.remainingMs() > 0) {
      q.retried = true;
      q.delayed = true;
      log.info("A worker died under a query; running it again ({} ms of its limit left)", q.remainingMs());
      place(q);
    } else if (died.retryable && q.remainingMs() <= 0) {
      // Its limit passed before its worker was seen to die (a frozen one is dropped by the cluster only after its
      // limit): its caller hears that limit, as from a worker that was merely slow.
      q.answer.tryFail(new QuarryException(Failure.TIMEOUT, WorkerClient.timedOut(q.limitMs, "")));
    } else {
      q.answer.tryFail(died.failure);
    }
  }

  /**
   * Starts waiting queries, users in turn, while members have room: after a query ends or a member changed. A member
   * with room takes the first query whose work is at home there (see {@link #atHome}) and that came no more than
   * {@code keepHomeMs} after the first in line; else the first in line, wherever its home. So under an even load each
   * conversation keeps to its own process instead of every process opening a database for every conversation; a query
   * whose process is held up by long ones moves once the others have overtaken it by that much; and no member idles
   * while queries wait.
   */
  void drain() {
    while (!waiting.isEmpty()) {
      List<Member> open = members.stream().filter(this::hasRoom).toList();
      if (open.isEmpty()) {
        return;
      }
      long overtakeBefore = waiting.peek().waitingSince + TimeUnit.MILLISECONDS.toNanos(keepHomeMs);
      Queued next = waiting.pollFirst(q -> q.waitingSince - overtakeBefore <= 0 && atHome(q, open));
      start(next != null ? next : waiting.poll());
    }
  }

  /**
   * Whether a waiting query may start on one of {@code open} without leaving its home: the process where its
   * conversation's work last ran is among them, or it has none to keep to (never placed, or that process not ready).
   */
  private boolean atHome(Queued q, List<Member> open) {
    Integer home = affinity.home(q.query);
    return home == null || open.stream().anyMatch(m -> m.slot() == home)
        || members.stream().noneMatch(m -> m.slot() == home && m.isReady());
  }

  /** Queries the node holds now. */
  int waiting() {
    return waiting.size();
  }

  /** The pool stops: nothing waiting will be run. */
  void close() {
    for (Queued q : waiting.drain()) {
      vertx.cancelTimer(q.timer);
      q.answer.tryFail(new QuarryException(Failure.UNAVAILABLE, WorkerClient.NO_WORKER));
    }
  }
}
