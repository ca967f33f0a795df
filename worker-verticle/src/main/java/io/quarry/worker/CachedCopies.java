package io.quarry.worker;

import io.quarry.bus.Source;
import io.quarry.bus.Timestamps;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.function.ToLongFunction;

/**
 * The cache's eviction: the copy held of each URL, least recently used first, and the eldest unpinned ones given up
 * while the bytes they hold pass {@code worker.cacheMaxBytes}. Every read counts as a use. Lives on the worker
 * verticle's event loop.
 */
final class CachedCopies {

  /**
   * @param confirmed when the URL's server last said this is its current content
   * @param freshMs how long after that it is used without asking ({@link Freshness})
   */
  record Entry(Path file, String etag, String lastModified, long size, Instant confirmed, long freshMs) {

    Entry confirmedNow(long window) {
      return new Entry(file, etag, lastModified, size, Instant.now(), window);
    }

    /**
     * Whether it may be used now without asking its server: within its window of its own confirmation, or of a later
     * one its dataset records ({@code recorded}, of this version: another worker's, which its node passed on; null:
     * none). A confirmation from a clock ahead of this one is not trusted: it would keep the copy fresh for as long as
     * that clock is ahead.
     */
    boolean fresh(Instant now, Source recorded) {
      Instant since = confirmed;
      Instant elsewhere = recorded == null ? null : confirmedAt(recorded);
      if (elsewhere != null && !elsewhere.isAfter(now) && elsewhere.isAfter(since)) {
        since = elsewhere;
      }
      return now.toEpochMilli() - since.toEpochMilli() < freshMs;
    }

    private static Instant confirmedAt(Source recorded) {
      try {
        return recorded.confirmedAt() == null ? null : Timestamps.parse(recorded.confirmedAt());
      } catch (DateTimeParseException e) {
        return null;
      }
    }

    /** As a result records the version it read. */
    Source source(String table, String url) {
      return new Source(table, url, etag, lastModified, size, confirmed.toString());
    }
  }

  private final LinkedHashMap<String, Entry> entries = new LinkedHashMap<>(16, 0.75f, true);
  private final long maxBytes;
  private final ToLongFunction<Entry> heldBytes;
  private final PinnedFiles pinned;
  private final long freshForMs;

  /**
   * @param heldBytes the bytes a copy takes on disk, which for a sparse one is less than its file's size
   * @param freshForMs how long a confirmed copy is used unasked when its server says nothing of it
   */
  CachedCopies(long maxBytes, ToLongFunction<Entry> heldBytes, PinnedFiles pinned, long freshForMs) {
    this.maxBytes = maxBytes;
    this.heldBytes = heldBytes;
    this.pinned = pinned;
    this.freshForMs = freshForMs;
  }

  /** The copy held of {@code url}, or null. */
  Entry get(String url) {
    return entries.get(url);
  }

  /** Its server said {@code file} is still {@code url}'s current content, in a response that carried {@code answer}. */
  void confirmed(String url, Path file, TailResponse answer) {
    long window = Freshness.windowMs(answer.cacheControl(), freshForMs);
    entries.computeIfPresent(url, (u, entry) -> entry.file().equals(file) ? entry.confirmedNow(window) : entry);
  }

  /**
   * A new version of {@code url}, as its server just sent it: the one it replaces goes, and so do the eldest while the
   * cache is over its size.
   */
  void install(String url, Path file, TailResponse version) {
    Entry entry = new Entry(file, version.etag(), version.lastModified(), version.size(), Instant.now(),
        Freshness.windowMs(version.cacheControl(), freshForMs));
    Entry replaced = entries.put(url, entry);
    if (replaced != null) {
      pinned.drop(replaced.file());
    }
    evictBeyondLimit(entry.file());
  }

  /** A copy whose file changed on its server under a fetch: the next use fetches the new version. */
  void forget(String url, Path file) {
    Entry entry = entries.get(url);
    if (entry != null && entry.file().equals(file)) {
      entries.remove(url);
      pinned.drop(file);
    }
  }

  /** Gives up the least recently used copies, neither pinned nor {@code keep}, until the cache fits. */
  void evictBeyondLimit(Path keep) {
    long total = entries.values().stream().mapToLong(heldBytes).sum();
    for (Iterator<Entry> it = entries.values().iterator(); it.hasNext() && total > maxBytes; ) {
      Entry eldest = it.next();
      if (!eldest.file().equals(keep) && !pinned.pinned(eldest.file())) {
        it.remove();
        long freed = heldBytes.applyAsLong(eldest);
        total -= freed;
        CacheMetrics.evicted(freed);
        pinned.drop(eldest.file());
      }
    }
  }
}
