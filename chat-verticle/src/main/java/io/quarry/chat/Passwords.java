package io.quarry.chat;

import io.quarry.bus.Failure;
import io.quarry.bus.QuarryException;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Argon2id password hashes with a random salt (OWASP's parameters: 19 MiB, 2 passes, 1 lane). Slow by
 * design, so they run on a pool of their own, side by side (one sign-in never waits for another's hash to
 * finish first), with a bounded queue: past it a sign-in is told to come back rather than wait behind a flood.
 */
final class Passwords {

  static final String BUSY = "Too many sign-ins at once; try again in a moment";

  private static final Argon2id ARGON2 = new Argon2id(19_456, 2, 1);

  /**
   * Checked when the email is unknown, so that a wrong email costs the same time as a wrong password. Made when first
   * needed, or by {@link #prepare} (in a JVM just started it takes over a second, which no node start should wait for,
   * and a node in local mode never checks a password).
   */
  private static final class Dummy {
    static final String HASH = ARGON2.hash("not a password of anybody");
  }

  private final WorkerExecutor pool;
  private final int maxQueued;
  private int queued;
  private final AtomicInteger running = new AtomicInteger();
  private final AtomicInteger peak = new AtomicInteger();
  private final AtomicLong computed = new AtomicLong();

  /** {@code threads} hashes at once (each holds 19 MiB), and at most {@code maxQueued} waiting or running. */
  Passwords(Vertx vertx, int threads, int maxQueued) {
    this.pool = vertx.createSharedWorkerExecutor("quarry-passwords", threads);
    this.maxQueued = maxQueued;
  }

  Future<String> hash(String password) {
    return run(() -> ARGON2.hash(password));
  }

  /** Makes the hash an unknown email is checked against, on the pool, before the first sign-in needs it. */
  void prepare() {
    pool.executeBlocking(() -> Dummy.HASH, false);
  }

  /** Whether {@code password} matches {@code hash}; with no hash (no such account) it takes the same time. */
  Future<Boolean> matches(String password, String hash) {
    return run(() -> Argon2id.matches(password, hash == null ? Dummy.HASH : hash) && hash != null);
  }

  /** Hashes computed so far (each check computes one), and the most that ever ran at once. */
  long computed() {
    return computed.get();
  }

  int peak() {
    return peak.get();
  }

  /** Called on the verticle's event loop only, so {@code queued} needs no lock. */
  private <T> Future<T> run(Callable<T> hashing) {
    if (queued >= maxQueued) {
      return Future.failedFuture(new QuarryException(Failure.UNAVAILABLE, BUSY));
    }
    queued++;
    return pool.executeBlocking(() -> {
      peak.accumulateAndGet(running.incrementAndGet(), Math::max);
      try {
        return hashing.call();
      } finally {
        running.decrementAndGet();
        computed.incrementAndGet();
      }
    }, false).andThen(done -> queued--);
  }

  Future<Void> close() {
    return pool.close();
  }
}
