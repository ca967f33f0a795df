package io.quarry.worker.pool;

import io.quarry.bus.Sizes;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * How long a pool's workers may take to start ({@code localWorkers.startTimeoutMs}), counted from when the pool starts
 * them. Its node asks whether they are ready only once it has deployed its other roles, which on a loaded host takes a
 * while of its own: that wait is not the workers' and must neither stretch nor shorten theirs.
 */
final class StartDeadline {

  static final String SETTING = "localWorkers.startTimeoutMs, QUARRY_LOCAL_WORKERS_START_TIMEOUT_MS";

  private final Vertx vertx;
  private final long limitMs;
  private final LongSupplier clockMs;
  private long startedAtMs = -1;

  /** {@code clockMs}: milliseconds from any origin ({@code System::currentTimeMillis}, or a test's). */
  StartDeadline(Vertx vertx, long limitMs, LongSupplier clockMs) {
    this.vertx = vertx;
    this.limitMs = limitMs;
    this.clockMs = clockMs;
  }

  /** The workers are being started now: the limit counts from here. */
  void started() {
    startedAtMs = clockMs.getAsLong();
  }

  /**
   * Completes as {@code starts} does, or fails once the limit has passed since {@link #started}, at once when it has
   * already, saying what {@code status} says of the workers then.
   */
  Future<Void> await(Future<?> starts, Supplier<String> status) {
    long since = startedAtMs < 0 ? clockMs.getAsLong() : startedAtMs;
    long leftMs = Math.max(1, since + limitMs - clockMs.getAsLong());
    Promise<Void> ready = Promise.promise();
    long timer = vertx.setTimer(leftMs, t -> ready.tryFail(new IllegalStateException("The workers were not ready"
        + " within " + Sizes.seconds(limitMs) + " of their start (" + SETTING + "; a loaded host may need more): "
        + status.get())));
    starts.onComplete(all -> {
      vertx.cancelTimer(timer);
      if (all.succeeded()) {
        ready.tryComplete();
      } else {
        ready.tryFail(all.cause());
      }
    });
    return ready.future();
  }
}
