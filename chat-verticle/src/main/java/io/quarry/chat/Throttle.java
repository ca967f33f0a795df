package io.quarry.chat;

import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Exponential back-off of failed attempts, per key (an account, a client address), in this verticle's memory.
 * The first {@link Rule#free()} failures cost nothing; each one after that blocks the key for twice as long as
 * the one before, up to {@link Rule#maxMs()} — so a key is slowed down, never locked out for good. A key's
 * failures are forgotten {@code forgetMs} after its last one, or when {@link #succeeded} clears it.
 */
final class Throttle {

  /** How a kind of key backs off. */
  record Rule(int free, long baseMs, long maxMs) {
  }

  private static final class Entry {
    int failures;
    long lastFailure;
    long blockedUntil;
  }

  private final LongSupplier clock;
  private final long forgetMs;
  private final Map<String, Entry> entries;

  /** {@code maxKeys}: the most keys remembered; the least recently used go first, so memory stays bounded. */
  Throttle(LongSupplier clock, long forgetMs, int maxKeys) {
    this.clock = clock;
    this.forgetMs = forgetMs;
    this.entries = new Lru<>(maxKeys);
  }

  /** How long {@code key} must still wait before its next attempt (ms); 0 when it may try now. */
  long waitMs(String key) {
    Entry entry = live(key);
    return entry == null ? 0 : Math.max(0, entry.blockedUntil - clock.getAsLong());
  }

  /**
   * Counts an attempt as failed as soon as it starts, so that parallel attempts cannot slip past the limit
   * between the check and the outcome; one that turns out well is {@link #forgive forgiven} or
   * {@link #succeeded cleared}.
   */
  void count(String key, Rule rule) {
    long now = clock.getAsLong();
    Entry entry = live(key);
    if (entry == null) {
      entry = new Entry();
      entries.put(key, entry);
    }
    entry.failures++;
    entry.lastFailure = now;
    int over = entry.failures - rule.free();
    if (over > 0) {
      entry.blockedUntil = now + Math.min(rule.baseMs() << Math.min(over - 1, 30), rule.maxMs());
    }
  }

  /** Takes back one attempt {@link #count counted} that did not fail after all. */
  void forgive(String key, Rule rule) {
    Entry entry = entries.get(key);
    if (entry != null && --entry.failures <= rule.free()) {
      entry.blockedUntil = 0;
    }
  }

  /** Forgets every failure of {@code key}. */
  void succeeded(String key) {
    entries.remove(key);
  }

  private Entry live(String key) {
    Entry entry = entries.get(key);
    if (entry != null && clock.getAsLong() - entry.lastFailure > forgetMs
        && clock.getAsLong() >= entry.blockedUntil) {
      entries.remove(key);
      return null;
    }
    return entry;
  }
}
