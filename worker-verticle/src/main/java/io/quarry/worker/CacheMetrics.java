package io.quarry.worker;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Metrics;

/**
 * The worker's cache, as docs/metrics.md names it: each use of a file a query reads is fresh when the copy held was
 * confirmed within its freshness window (its server is not asked), a hit when its server confirms the copy held is
 * the file's current version, a miss when a new version must be fetched (its footer, or the whole file) or is begun
 * from the last bytes adding the file read; the bytes fetched (footers, column chunks, whole files, and those last
 * bytes: they came from the file's server for this copy) and evicted.
 */
final class CacheMetrics {

  private static final Counter HITS = requests("hit");
  private static final Counter MISSES = requests("miss");
  private static final Counter FRESH = requests("fresh");
  private static final Counter FETCHED = Counter.builder("quarry.cache.fetched").baseUnit("bytes")
      .description("Bytes fetched from datasets' servers into the cache").register(Metrics.globalRegistry);
  private static final Counter EVICTED = Counter.builder("quarry.cache.evicted").baseUnit("bytes")
      .description("Bytes the cache gave up to stay under worker.cacheMaxBytes").register(Metrics.globalRegistry);

  private CacheMetrics() {
  }

  private static Counter requests(String result) {
    return Counter.builder("quarry.cache.requests").description("Uses of files queries read: fresh, current, or new")
        .tag("result", result).register(Metrics.globalRegistry);
  }

  static void fresh() {
    FRESH.increment();
  }

  static void revalidated(boolean current) {
    (current ? HITS : MISSES).increment();
  }

  /** A new copy begun from the {@code bytes} adding its file read. */
  static void begun(long bytes) {
    MISSES.increment();
    FETCHED.increment(bytes);
  }

  static void fetched(long bytes) {
    FETCHED.increment(bytes);
  }

  static void evicted(long bytes) {
    EVICTED.increment(bytes);
  }
}
