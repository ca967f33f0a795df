package io.quarry.worker.pool;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Metrics;
import java.util.List;
import java.util.function.Supplier;

/** A node's worker pool, as docs/metrics.md names it: the queries it holds and runs, its processes' restarts. */
final class PoolMetrics {

  private final List<Meter> gauges;

  PoolMetrics(Supplier<Number> waiting, Supplier<Number> inFlight) {
    gauges = List.of(
        Gauge.builder("quarry.worker.queue.depth", waiting).description("Queries the node holds for a free worker")
            .register(Metrics.globalRegistry),
        Gauge.builder("quarry.worker.in.flight", inFlight).description("Queries on the node's workers now")
            .register(Metrics.globalRegistry));
  }

  /** {@code cause}: crash, out_of_memory or stuck (killed for silence past a query's limit). */
  static void restarted(String cause) {
    Counter.builder("quarry.worker.restarts").description("Worker processes restarted, by cause").tag("cause", cause)
        .register(Metrics.globalRegistry).increment();
  }

  /** The pool stopped: its gauges go with it (another pool in this process may register its own). */
  void close() {
    gauges.forEach(Metrics.globalRegistry::remove);
  }
}
