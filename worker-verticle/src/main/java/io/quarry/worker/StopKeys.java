package io.quarry.worker;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The queries running under each stop key, and the keys stopped lately: a query sent before its stop but arriving
 * after it (it waited in a queue) is refused at once. Lives on the worker verticle's event loop.
 */
final class StopKeys {

  private static final int REMEMBERED = 4_096;

  private final Map<String, List<Runnable>> running = new HashMap<>();
  private final Map<String, Boolean> stopped = new LinkedHashMap<>(64, 0.75f, false) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
      return size() > REMEMBERED;
    }
  };

  boolean stopped(String key) {
    return !key.isEmpty() && stopped.containsKey(key);
  }

  /** {@code stop} runs if the key is stopped before the returned action runs. */
  Runnable whileRunning(String key, Runnable stop) {
    if (key.isEmpty()) {
      return () -> { };
    }
    running.computeIfAbsent(key, k -> new ArrayList<>()).add(stop);
    return () -> running.computeIfPresent(key, (k, stops) -> {
      stops.remove(stop);
      return stops.isEmpty() ? null : stops;
    });
  }

  void stop(String key) {
    if (key.isEmpty()) {
      return;
    }
    stopped.put(key, true);
    List<Runnable> stops = running.remove(key);
    if (stops != null) {
      stops.forEach(Runnable::run);
    }
  }
}
