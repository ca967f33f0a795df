package io.quarry.bench;

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

  private static final String ALLOCATED = "jvm_gc_memory_allocated_bytes_total";
  private static final String PAUSE_COUNT = "jvm_gc_pause_seconds_count";
  private static final String PAUSE_SUM = "jvm_gc_pause_seconds_sum";
  private static final String USED = "jvm_memory_used_bytes{";

  /** Reads the node's metrics now (blocks; not on an event loop). */
  static NodeGc read(WebClient metrics) {
    String text = metrics.get("/metrics").send().await().bodyAsString();
    double counted = 0;
    double eden = 0;
    long pauses = 0;
    double seconds = 0;
    for (String line : text.split("\n")) {
      if (line.contains("worker=\"")) {
        continue;
      }
      if (line.startsWith(ALLOCATED + " ")) {
        counted = value(line);
      } else if (line.startsWith(PAUSE_COUNT)) {
        pauses += (long) value(line);
      } else if (line.startsWith(PAUSE_SUM)) {
        seconds += value(line);
      } else if (line.startsWith(USED) && line.contains("Eden Space")) {
        eden += value(line);
      }
    }
    return new NodeGc(counted + eden, pauses, seconds);
  }

  private static double value(String line) {
    return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
  }

  /** What happened between {@code earlier} and this reading, per unit of {@code work} (tokens, queries ...). */
  String since(NodeGc earlier, long work, String unit) {
    long count = pauses - earlier.pauses;
    double ms = (pauseSeconds - earlier.pauseSeconds) * 1000;
    return String.format(Locale.ROOT, "%.1f KB allocated a %s, %d GC pauses (mean %.1f ms, %.0f ms in all)",
        (allocatedBytes - earlier.allocatedBytes) / work / 1024, unit, count, count == 0 ? 0 : ms / count, ms);
  }
}
