package io.quarry.worker.pool;

import io.quarry.bus.Defaults;
import io.vertx.core.json.JsonObject;

/**
 * How a node runs its worker processes ({@code localWorkers} in the configuration).
 *
 * @param heapMb the Java heap of each worker process
 * @param memoryCapMb the address space the operating system allows each worker process (0: no cap);
 *     DuckDB's own {@code worker.memoryLimit} and the heap must fit well inside it
 * @param queueSize queries the node holds while every worker is busy or restarting; past it "Server busy"
 * @param keepWarm processes started with the node and kept running however idle (at most {@code count}); the others
 *     start when queries need them (the first query, or every running process busy)
 * @param idleStopMs a process beyond {@code keepWarm} that has run no query for this long is stopped (0: never)
 * @param classArchiveDir where the workers' class-data-sharing archive lives; empty for the node's
 *     {@code workers} directory under {@code worker.dataDir}
 */
public record LocalWorkersConfig(int count, int heapMb, long memoryCapMb, long startTimeoutMs, long restartDelayMs,
    int queueSize, int keepWarm, long idleStopMs, String classArchiveDir) {

  public static final int MAX_COUNT = 64;

  /** From a node's whole configuration. */
  public static LocalWorkersConfig of(JsonObject nodeConfig) {
    return from(nodeConfig.getJsonObject("localWorkers"));
  }

  /** The section's settings over the defaults. */
  public static LocalWorkersConfig from(JsonObject given) {
    JsonObject section = Defaults.section("localWorkers", given);
    int count = section.getInteger("count");
    LocalWorkersConfig config = new LocalWorkersConfig(count, section.getInteger("heapMb"),
        section.getLong("memoryCapMb"), section.getLong("startTimeoutMs"), section.getLong("restartDelayMs"),
        section.getInteger("queueSize"), Math.min(section.getInteger("keepWarm"), count), section.getLong("idleStopMs"),
        section.getString("classArchiveDir"));
    if (config.count < 0 || config.count > MAX_COUNT) {
      throw new IllegalArgumentException("localWorkers.count must be from 0 to " + MAX_COUNT + ", got " + config.count);
    }
    if (config.heapMb < 64) {
      throw new IllegalArgumentException("localWorkers.heapMb must be at least 64, got " + config.heapMb);
    }
    if (config.memoryCapMb != 0 && config.memoryCapMb < config.heapMb + 512L) {
      throw new IllegalArgumentException("localWorkers.memoryCapMb must be 0 (no cap) or at least heapMb + 512 ("
          + (config.heapMb + 512) + "), got " + config.memoryCapMb);
    }
    if (config.queueSize < 0) {
      throw new IllegalArgumentException("localWorkers.queueSize must be 0 or more, got " + config.queueSize);
    }
    if (config.keepWarm < 0) {
      throw new IllegalArgumentException("localWorkers.keepWarm must be 0 or more, got " + config.keepWarm);
    }
    if (config.idleStopMs < 0) {
      throw new IllegalArgumentException("localWorkers.idleStopMs must be 0 (never) or more, got " + config.idleStopMs);
    }
    return config;
  }

  public LocalWorkersConfig withCount(int n) {
    return new LocalWorkersConfig(n, heapMb, memoryCapMb, startTimeoutMs, restartDelayMs, queueSize,
        Math.min(keepWarm, n), idleStopMs, classArchiveDir);
  }
}
