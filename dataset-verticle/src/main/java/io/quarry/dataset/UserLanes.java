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
 * user's lane and holds a few worker slots at most, so everybody else's queries go on. A query delivered again (the
 * bus sends every request in flight once more when a member leaves, and again two seconds later) joins the one in the
 * lane with its id, taking no second place. Confined to the verticle's event loop.
 */
final class UserLanes {

  static final String FULL = "You have too many queries running; wait for them to finish";

  private final int maxRunning;
  private final int maxWaiting;
  private final Map<String, Lane> lanes = new HashMap<>();
  /** The queries in a lane, running or waiting, by user and query id. */
  private final Map<String, Future<?>> inLane = new HashMap<>();

  private static final class Lane {
    int running;
    final Queue<Runnable> waiting = new ArrayDeque<>();
  }

  UserLanes(int maxRunning, int maxWaiting) {
    this.maxRunning = maxRunning;
    this.maxWaiting = maxWaiting;
  }

  /** {@code queryId}: a query of the user's already in the lane with this id is joined, not run again. */
  @SuppressWarnings("unchecked")
  <T> Future<T> submit(String userId, String queryId, Supplier<Future<T>> query) {
    String key = userId + "\n" + queryId;
    Future<?> same = inLane.get(key);
    if (same != null) {
      return (Future<T>) same;
    }
    Future<T> answer = submit(userId, query);
    if (!answer.isComplete()) {
      inLane.put(key, answer);
      answer.onComplete(done -> inLane.remove(key));
    }
    return answer;
  }

  private <T> Future<T> submit(String userId, Supplier<Future<T>> query) {
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
