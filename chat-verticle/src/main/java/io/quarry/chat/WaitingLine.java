package io.quarry.chat;

import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Connections that hold a place while they wait for their client (to sign in, to send a request head), so that a full
 * house gives up one of them for a newcomer instead of refusing it.
 *
 * <p>A connection is never given up in its first {@link #GRACE_MS}: a client that means to sign in or ask does so at
 * once, and under a flood the server may read its first bytes only after accepting hundreds of the flood's connections;
 * were the newest given up, it would always be the client's. Past its grace, the one given up is the oldest of the
 * address that has the most waiting: a flood from one address replaces its own connections, never another address's.
 * A loop running behind (its timers late) stretches the grace by as much, since it reads first bytes as late.
 * Confined to one event loop.
 */
final class WaitingLine<T> {

  private record Waiting(String address, long since) {
  }

  /** A client's moment to sign in or ask, when its connection is never given up for another. */
  static final long GRACE_MS = 1_000;

  /** In their grace, oldest first. */
  private final LinkedHashMap<T, Waiting> fresh = new LinkedHashMap<>();
  private final Map<String, LinkedHashSet<T>> byAddress = new HashMap<>();
  private final Map<T, String> aged = new HashMap<>();
  /** Milliseconds on a monotonic clock. */
  private final LongSupplier clock;
  /** How late the loop last ran a timer: a loop that far behind reads newcomers' first bytes that much later. */
  private long behindMs;

  WaitingLine() {
    this(() -> System.nanoTime() / 1_000_000);
  }

  WaitingLine(LongSupplier clock) {
    this.clock = clock;
  }

  void add(T item, String address) {
    if (!aged.containsKey(item)) {
      fresh.putIfAbsent(item, new Waiting(address, now()));
    }
  }

  /** True when it was waiting. */
  boolean remove(T item) {
    if (fresh.remove(item) != null) {
      return true;
    }
    String address = aged.remove(item);
    if (address == null) {
      return false;
    }
    LinkedHashSet<T> line = byAddress.get(address);
    line.remove(item);
    if (line.isEmpty()) {
      byAddress.remove(address);
    }
    return true;
  }

  /** Those in their grace. */
  int fresh() {
    return fresh.size();
  }

  /** Those waiting past their grace. */
  int aged() {
    promote();
    return aged.size();
  }

  /** Takes out the one to give up for a newcomer; null when none waits past its grace. */
  T giveUp() {
    promote();
    LinkedHashSet<T> longest = null;
    for (LinkedHashSet<T> line : byAddress.values()) {
      if (longest == null || line.size() > longest.size()) {
        longest = line;
      }
    }
    if (longest == null) {
      return null;
    }
    T item = longest.iterator().next();
    remove(item);
    return item;
  }

  /** When a timer set now for {@code ms} is due, on this line's clock: to hand to {@link #timerRan}. */
  long due(long ms) {
    return now() + ms;
  }

  /** A timer due at {@code dueMs} ran: grace stretches by how late it ran, until one runs on time. */
  void timerRan(long dueMs) {
    behindMs = Math.max(0, now() - dueMs);
  }

  private void promote() {
    long now = now();
    Iterator<Map.Entry<T, Waiting>> oldest = fresh.entrySet().iterator();
    while (oldest.hasNext()) {
      Map.Entry<T, Waiting> next = oldest.next();
      if (now - next.getValue().since() < GRACE_MS + behindMs) {
        return;
      }
      oldest.remove();
      aged.put(next.getKey(), next.getValue().address());
      byAddress.computeIfAbsent(next.getValue().address(), a -> new LinkedHashSet<>()).add(next.getKey());
    }
  }

  private long now() {
    return clock.getAsLong();
  }
}
