package io.quarry.bench;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** Latencies and failures of one load run, recorded as answers arrive (from any thread). */
public final class LoadStats {

  private final int expected;
  private final Runnable halfway;
  private final List<Double> latenciesMs = new ArrayList<>();
  private final Map<Integer, Integer> failures = new TreeMap<>();
  private final long startedNanos = System.nanoTime();
  private long elapsedNanos;
  private long asked;
  private final Set<Long> inFlight = new HashSet<>();
  /** The queries under way when {@code halfway} ran, and then the latencies of those answered. */
  private Set<Long> underWayAtHalfway = Set.of();
  private final List<Double> underWayLatenciesMs = new ArrayList<>();

  /** {@code halfway}: run once, when half of the {@code expected} answers have arrived; may be null. */
  LoadStats(int expected, Runnable halfway) {
    this.expected = expected;
    this.halfway = halfway;
  }

  /** One answer, its query not followed while under way: its HTTP status, or -1 when the request itself failed. */
  void answered(long startedNanos, int status) {
    answered(0, startedNanos, status);
  }

  /** A query asked: the ticket its {@link #answered} gives back. */
  synchronized long asked() {
    inFlight.add(++asked);
    return asked;
  }

  /**
   * One answer to the query of {@code ticket}, asked at {@code startedNanos}: its HTTP status, or -1 when the request
   * itself failed.
   */
  void answered(long ticket, long startedNanos, int status) {
    boolean atHalfway;
    double ms = (System.nanoTime() - startedNanos) / 1e6;
    synchronized (this) {
      latenciesMs.add(ms);
      inFlight.remove(ticket);
      if (underWayAtHalfway.contains(ticket)) {
        underWayLatenciesMs.add(ms);
      }
      if (status != 200) {
        failures.merge(status, 1, Integer::sum);
      }
      atHalfway = halfway != null && latenciesMs.size() == expected / 2;
      if (atHalfway) {
        underWayAtHalfway = Set.copyOf(inFlight);
      }
    }
    if (atHalfway) {
      halfway.run();
    }
  }

  /** The latencies of the queries that were under way when {@code halfway} ran (a worker killed under them), sorted. */
  synchronized List<Double> underWayAtHalfway() {
    return underWayLatenciesMs.stream().sorted().toList();
  }

  synchronized LoadStats done() {
    elapsedNanos = System.nanoTime() - startedNanos;
    return this;
  }

  synchronized int count() {
    return latenciesMs.size();
  }

  synchronized double p50() {
    return percentile(latenciesMs, 0.50);
  }

  synchronized double p99() {
    return percentile(latenciesMs, 0.99);
  }

  /** Answers that succeeded, per second of the run. */
  synchronized double perSecond() {
    int failed = failures.values().stream().mapToInt(Integer::intValue).sum();
    return (latenciesMs.size() - failed) / (elapsedNanos / 1e9);
  }

  synchronized boolean anyFailed() {
    return !failures.isEmpty();
  }

  /** E.g. "none", or "503 × 134, 500 × 14". */
  synchronized String failures() {
    if (failures.isEmpty()) {
      return "none";
    }
    List<String> parts = new ArrayList<>();
    failures.forEach((status, n) -> parts.add((status == -1 ? "no answer" : status.toString()) + " × " + n));
    return String.join(", ", parts);
  }

  public static double median(List<Double> values) {
    return percentile(values, 0.50);
  }

  private static double percentile(List<Double> values, double p) {
    if (values.isEmpty()) {
      return Double.NaN;
    }
    double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p * sorted.length) - 1)];
  }
}
