package io.quarry.chat;

import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Token buckets by key, in this verticle's memory: {@code burst} at once, then {@code perMinute}, refilled smoothly.
 * The least recently used keys go past {@code maxKeys}, so memory stays bounded (a forgotten key starts full, which
 * is what a key unused for that long would have).
 */
final class Buckets {

  private static final class Bucket {
    double tokens;
    long at;
  }

  private final LongSupplier clock;
  private final double perMs;
  private final int burst;
  private final Map<String, Bucket> buckets;

  Buckets(LongSupplier clock, int perMinute, int burst, int maxKeys) {
    this.clock = clock;
    this.perMs = perMinute / 60_000.0;
    this.burst = burst;
    this.buckets = new Lru<>(maxKeys);
  }

  /** Takes one token of {@code key}'s bucket: 0 when there was one, else how long (ms) until there is. */
  long take(String key) {
    long now = clock.getAsLong();
    Bucket bucket = buckets.computeIfAbsent(key, k -> {
      Bucket fresh = new Bucket();
      fresh.tokens = burst;
      fresh.at = now;
      return fresh;
    });
    bucket.tokens = Math.min(burst, bucket.tokens + (now - bucket.at) * perMs);
    bucket.at = now;
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return (long) Math.ceil((1 - bucket.tokens) / perMs);
  }

  /** Whole seconds to wait, rounded up, as {@code Retry-After} says it. */
  static long seconds(long waitMs) {
    return (waitMs + 999) / 1_000;
  }
}
