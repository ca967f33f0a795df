package io.quarry.worker.pool;

import io.quarry.bus.Failure;
import io.quarry.bus.LocalWorker;
import io.quarry.bus.LocalWorkerStatus;
import io.quarry.bus.QuarryException;
import io.quarry.bus.QueryRequest;
import io.quarry.bus.WorkerClient;
import io.quarry.bus.WorkerOps;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;

/** One member of a node's worker pool: a supervised worker process, or the worker verticle of this very process. */
interface Member {

  void start();

  /** A worker process said it is ready (it may be another member's). */
  default void announced(LocalWorker worker) {
  }

  int slot();

  boolean isReady();

  /** No process runs for it: it starts one when its pool asks. */
  default boolean isIdle() {
    return false;
  }

  /** Its process is on its way to ready (a first start, or a restart after a death). */
  default boolean isStarting() {
    return false;
  }

  /** How long it has been ready with nothing to run, at {@code nowMs}; 0 when it is not. */
  default long idleMs(long nowMs) {
    return 0;
  }

  /** Ends its process for want of work, if it is idle; it starts again when asked. */
  default Future<Void> retire() {
    return Future.succeededFuture();
  }

  /** Queries it runs now. */
  int load();

  /** Runs one query that may run {@code timeoutMs}; its caller hears at once if the member dies under it. */
  Future<Buffer> run(QueryRequest query, long timeoutMs);

  LocalWorkerStatus status();

  /**
   * A worker process's metrics in Prometheus's text format ({@code {name, text}}), or null for a member whose metrics
   * are its node's own (the worker of the pool's own process) or that is not running.
   */
  default Future<WorkerOps.Metrics> metrics() {
    return Future.succeededFuture(null);
  }

  Future<Void> stop();

  /** The member stayed silent past its query's limit and its wait: the caller hears the usual timeout. */
  static boolean silent(Throwable failure) {
    return failure instanceof ReplyException re && re.failureType() == ReplyFailure.TIMEOUT;
  }

  /**
   * Nobody listens at the member's own address: the cluster dropped it (a process frozen past its heartbeats), or it
   * died. Its query may run on another member.
   */
  static boolean gone(Throwable failure) {
    return failure instanceof ReplyException re && re.failureType() == ReplyFailure.NO_HANDLERS;
  }

  static QuarryException timedOut(long timeoutMs) {
    return new QuarryException(Failure.TIMEOUT, WorkerClient.timedOut(timeoutMs, ""));
  }
}
