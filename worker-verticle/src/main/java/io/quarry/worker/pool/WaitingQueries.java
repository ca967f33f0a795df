package io.quarry.worker.pool;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The queries a node holds until one of its workers can take them: a line per user, served in turn, so that
 * one user's burst cannot keep another user's single query waiting behind it; bounded, so that past
 * {@code capacity} the node says it is busy instead of holding ever more. Lives on its pool's context only.
 */
final class WaitingQueries<T> {

  private final int capacity;
  /** In the order users are served next: the first user's oldest query goes first. */
  private final LinkedHashMap<String, Deque<T>> byUser = new LinkedHashMap<>();
  private int size;

  WaitingQueries(int capacity) {
    this.capacity = capacity;
  }

  /** False when the node already holds {@code capacity} queries. */
  boolean offer(String user, T query) {
    if (size >= capacity) {
      return false;
    }
    add(user, query);
    return true;
  }

  /** Whatever the node holds: for a query it admitted before, such as one whose worker died under it. */
  void add(String user, T query) {
    byUser.computeIfAbsent(user, u -> new ArrayDeque<>()).add(query);
    size++;
  }

  /** The next user's oldest query, or null; that user goes to the back of the line. */
  T poll() {
    Iterator<Map.Entry<String, Deque<T>>> first = byUser.entrySet().iterator();
    if (!first.hasNext()) {
      return null;
    }
    Map.Entry<String, Deque<T>> next = first.next();
    first.remove();
    T query = next.getValue().poll();
    if (!next.getValue().isEmpty()) {
      byUser.put(next.getKey(), next.getValue());
    }
    size--;
    return query;
  }

  /** Takes out a query that stopped waiting (its deadline passed); false if it had already left. */
  boolean remove(String user, T query) {
    Deque<T> line = byUser.get(user);
    if (line == null || !line.remove(query)) {
      return false;
    }
    if (line.isEmpty()) {
      byUser.remove(user);
    }
    size--;
    return true;
  }

  boolean isEmpty() {
    return size == 0;
  }

  int size() {
    return size;
  }

  /** Every query still waiting, which leave the line. */
  List<T> drain() {
    List<T> all = new ArrayList<>();
    byUser.values().forEach(all::addAll);
    byUser.clear();
    size = 0;
    return all;
  }
}
