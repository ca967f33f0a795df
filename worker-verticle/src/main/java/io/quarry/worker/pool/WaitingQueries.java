package io.quarry.worker.pool;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

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
    byUser.computeIfAbsent(user, u -> new ArrayDeque<>()).add(query);
    size++;
    return true;
  }

  /**
   * Ahead of every other query, whatever the node holds: for one that had its turn already and lost it, such as one
   * whose worker died under it. Its user is served next, and then goes to the back of the line as after any turn.
   */
  void addFirst(String user, T query) {
    Deque<T> line = byUser.remove(user);
    if (line == null) {
      line = new ArrayDeque<>();
    }
    line.addFirst(query);
    Map<String, Deque<T>> others = new LinkedHashMap<>(byUser);
    byUser.clear();
    byUser.put(user, line);
    byUser.putAll(others);
    size++;
  }

  /** The query {@link #poll} would take, left in its place; null when none waits. */
  T peek() {
    return byUser.isEmpty() ? null : byUser.values().iterator().next().peek();
  }

  /** The next user's oldest query, or null; that user goes to the back of the line. */
  T poll() {
    return pollFirst(query -> true);
  }

  /**
   * The first query {@code eligible} takes, users in turn (each user's oldest first), or null; its user goes to the
   * back of the line, and the users passed over keep their places.
   */
  T pollFirst(Predicate<T> eligible) {
    for (Iterator<Map.Entry<String, Deque<T>>> users = byUser.entrySet().iterator(); users.hasNext(); ) {
      Map.Entry<String, Deque<T>> user = users.next();
      for (Iterator<T> line = user.getValue().iterator(); line.hasNext(); ) {
        T query = line.next();
        if (eligible.test(query)) {
          line.remove();
          users.remove();
          if (!user.getValue().isEmpty()) {
            byUser.put(user.getKey(), user.getValue());
          }
          size--;
          return query;
        }
      }
    }
    return null;
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
