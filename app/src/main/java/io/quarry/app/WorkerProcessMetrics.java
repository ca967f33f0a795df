package io.quarry.app;

import io.quarry.bus.Addresses;
import io.quarry.bus.Bus;
import io.quarry.bus.WorkerOps;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.json.JsonObject;

/** In a worker process: its metrics, in Prometheus's text format, for its node to serve (see {@link MetricsEndpoint}). */
final class WorkerProcessMetrics extends VerticleBase {

  private final NodeMetrics metrics;

  WorkerProcessMetrics(NodeMetrics metrics) {
    this.metrics = metrics;
  }

  @Override
  public Future<?> start() {
    return new Bus(vertx).serve(WorkerOps.MEMBER_METRICS.at(Addresses.localWorkerMetrics(config().getString("workerId"))),
        none -> vertx.executeBlocking(metrics::scrape, false).map(text -> new WorkerOps.Metrics(null, text))).completion();
  }
}
