package io.quarry.dataset;

import io.quarry.bus.Failure;
import io.quarry.bus.QuarryException;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.Queue;
import java.util.function.Supplier;

/**
 * Each user's queries in a lane of their own: at most {@code maxRunning} on the workers at once, the next
 * {@code maxWaiting} in line in the order they came, the rest refused. A flood from one user waits in that
 * user's lane and holds a few worker slots at most, so everybody else's queries go on. Confined to the
 * verticle's event loop.
 */
final class UserLanes {

  static final String FULL = "You have too many queries running; wait for them to finish";

  private final int maxRunning;
  private final int maxWaiting;
  private final Map<String, Lane> lanes = new HashMap<>();

  private static final class Lane {
    int running;
    final Queue<Runnable> waiting = new ArrayDeque<>();
  }

  UserLanes(int maxRunning, int maxWaiting) {
    this.maxRunning = maxRunning;
    this.maxWaiting = maxWaiting;
  }

  <T> Future<T> submit(String userId, Supplier<Future<T>> query) {
    Lane lane = lanes.computeIfAbsent(userId, id -> new Lane());
    if (lane.running < maxRunning) {
      return start(userId, lane, query);
    }
    if (lane.waiting.size() >= maxWaiting) {
      return Future.failedFuture(new QuarryException(Failure.RATE_LIMITED, FULL));
    }
    Promise<T> turn = Promise.promise();
    lane.waiting.add(() -> start(userId, lane, query).onComplete(turn));
    return turn.future();
  }

  private <T> Future<T> start(String userId, Lane lane, Supplier<Future<T>> query) {
    lane.running++;
    Future<T> running;
    try {
      running = query.get();
    } catch (RuntimeException e) {
      running = Future.failedFuture(e);
    }
    return running.onComplete(done -> finished(userId, lane));
  }

  private void finished(String userId, Lane lane) {
    lane.running--;
    Runnable next = lane.waiting.poll();
    if (next != null) {
      next.run();
    } else if (lane.running == 0) {
      lanes.remove(userId);
    }
  }

  /** Queries of a user running or waiting now (tests). */
  int load(String userId) {
    Lane lane = lanes.get(userId);
    return lane == null ? 0 : lane.running + lane.waiting.size();
  }
}
