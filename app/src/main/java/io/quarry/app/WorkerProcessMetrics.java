package io.quarry.app;

import io.quarry.bus.Addresses;
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
    return vertx.eventBus().<JsonObject>consumer(Addresses.localWorkerMetrics(config().getString("workerId")),
        msg -> vertx.executeBlocking(metrics::scrape, false).onSuccess(text -> msg.reply(new JsonObject()
            .put("text", text)))).completion();
  }
}
