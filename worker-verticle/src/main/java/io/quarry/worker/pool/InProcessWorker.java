package io.quarry.worker.pool;

import io.quarry.bus.Bus;
import io.quarry.bus.LocalWorkerStatus;
import io.quarry.bus.QueryRequest;
import io.quarry.bus.QueryTimeouts;
import io.quarry.bus.WorkerOps;
import io.quarry.worker.WorkerSettings;
import io.quarry.worker.WorkerVerticle;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * The pool of one of a node that runs DuckDB itself (a worker-only node, or a worker process): the worker
 * verticle, deployed by the pool (so undeployed with it) on an address of its own.
 */
final class InProcessWorker implements Member {

  private final Vertx vertx;
  private final Bus bus;
  private final WorkerSettings worker;
  private final Consumer<Member> changed;
  private final String id = UUID.randomUUID().toString();
  private final Promise<Void> firstStart = Promise.promise();
  private boolean ready;
  private int inFlight;

  InProcessWorker(Vertx vertx, WorkerSettings worker, Consumer<Member> changed) {
    this.bus = new Bus(vertx);
    this.vertx = vertx;
    this.worker = worker;
    this.changed = changed;
  }

  @Override
  public void start() {
    vertx.deployVerticle(new WorkerVerticle(worker.withLocalWorkerId(id)))
        .onSuccess(deployment -> {
          ready = true;
          firstStart.tryComplete();
          changed.accept(this);
        })
        .onFailure(firstStart::tryFail);
  }

  /** Completes when the verticle is deployed; fails if it could not be. */
  Future<Void> firstStart() {
    return firstStart.future();
  }

  @Override
  public int slot() {
    return 1;
  }

  @Override
  public boolean isReady() {
    return ready;
  }

  @Override
  public int load() {
    return inFlight;
  }

  /** The worker cancels a query at its limit and says so; silence well past it is a timeout all the same. */
  @Override
  public Future<Buffer> run(QueryRequest query, long timeoutMs) {
    inFlight++;
    return WorkerOps.memberQueryRun(id).call(bus, query, QueryTimeouts.memberWaitMs(timeoutMs))
        .map(WorkerOps.Answer::bytes)
        .recover(e -> Future.failedFuture(Member.silent(e) ? Member.timedOut(timeoutMs) : e))
        .onComplete(done -> inFlight--);
  }

  @Override
  public LocalWorkerStatus status() {
    return new LocalWorkerStatus("in-process", ready ? "ready" : "starting", ProcessHandle.current().pid(), 0,
        inFlight, null, null, null);
  }

  @Override
  public Future<Void> stop() {
    ready = false;
    return Future.succeededFuture();
  }
}
