package io.quarry.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Latencies and failures of one load run, recorded as answers arrive (from any thread). */
public final class LoadStats {

  private final int expected;
  private final Runnable halfway;
  private final List<Double> latenciesMs = new ArrayList<>();
  private final Map<Integer, Integer> failures = new TreeMap<>();
  private final long startedNanos = System.nanoTime();
  private long elapsedNanos;

  /** {@code halfway}: run once, when half of the {@code expected} answers have arrived; may be null. */
  LoadStats(int expected, Runnable halfway) {
    this.expected = expected;
    this.halfway = halfway;
  }

  /** One answer: its HTTP status, or -1 when the request itself failed. */
  void answered(long startedNanos, int status) {
    int answered;
    synchronized (this) {
      latenciesMs.add((System.nanoTime() - startedNanos) / 1e6);
      if (status != 200) {
        failures.merge(status, 1, Integer::sum);
      }
      answered = latenciesMs.size();
    }
    if (halfway != null && answered == expected / 2) {
      halfway.run();
    }
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
