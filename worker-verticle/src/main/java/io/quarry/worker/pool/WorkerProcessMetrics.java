package io.quarry.worker.pool;

import io.quarry.bus.Bus;
import io.quarry.bus.WorkerOps;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import java.util.concurrent.Callable;

/**
 * In a worker process: its metrics, in Prometheus's text format, for its node to serve with its own (the pool asks
 * each member, see {@link Member#metrics}).
 */
public final class WorkerProcessMetrics extends VerticleBase {

  private final String workerId;
  private final Callable<String> scrape;

  /** {@code scrape}: this process's metrics; blocking, so it runs on a worker thread. */
  public WorkerProcessMetrics(String workerId, Callable<String> scrape) {
    this.workerId = workerId;
    this.scrape = scrape;
  }

  @Override
  public Future<?> start() {
    return new Bus(vertx).serve(WorkerOps.memberMetrics(workerId),
        none -> vertx.executeBlocking(scrape, false).map(text -> new WorkerOps.Metrics(null, text))).completion();
  }
}
