package io.quarry.bench;

import io.quarry.testing.PrometheusSamples;
import io.vertx.ext.web.client.WebClient;
import java.util.Locale;

/**
 * A node's garbage collection as its Prometheus endpoint tells it (Micrometer's JVM meters): the bytes it has allocated
 * and its collectors' pauses, so far. Two readings apart say what the work between them cost in garbage. Micrometer
 * counts allocation at each collection, from the young generation's growth since the one before: what the eden holds
 * at a reading is added, so that a reading under G1 misses only objects too large for the eden. Under ZGC (no eden in
 * Java 17) a reading lags by what was allocated since its last cycle. The node's own figures: its worker processes'
 * (labelled {@code worker}) are left out.
 */
record NodeGc(double allocatedBytes, long pauses, double pauseSeconds) {

  /** Reads the node's metrics now (blocks; not on an event loop). */
  static NodeGc read(WebClient metrics) {
    String own = PrometheusSamples.own(metrics.get("/metrics").send().await().bodyAsString());
    return new NodeGc(PrometheusSamples.value(own, "jvm_gc_memory_allocated_bytes_total")
        + PrometheusSamples.value(own, "jvm_memory_used_bytes", "Eden Space"),
        (long) PrometheusSamples.value(own, "jvm_gc_pause_seconds_count"),
        PrometheusSamples.value(own, "jvm_gc_pause_seconds_sum"));
  }

  /** What happened between {@code earlier} and this reading, per unit of {@code work} (tokens, queries ...). */
  String since(NodeGc earlier, long work, String unit) {
    long count = pauses - earlier.pauses;
    double ms = (pauseSeconds - earlier.pauseSeconds) * 1000;
    return String.format(Locale.ROOT, "%.1f KB allocated a %s, %d GC pauses (mean %.1f ms, %.0f ms in all)",
        (allocatedBytes - earlier.allocatedBytes) / work / 1024, unit, count, count == 0 ? 0 : ms / count, ms);
  }
}
