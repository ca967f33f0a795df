package io.quarry.testing;

import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Samples read out of Prometheus's text format, as a node's {@code GET /metrics} serves it. */
public final class PrometheusSamples {

  private static final Pattern NUMBER = Pattern.compile(" ([-+0-9.eE]+|NaN)$");

  private PrometheusSamples() {
  }

  /** The sample lines of one metric (its name then labels or a space). */
  public static List<String> samples(String text, String name) {
    return text.lines().filter(l -> l.startsWith(name + "{") || l.startsWith(name + " ")).toList();
  }

  /** The sum of a metric's samples whose labels include all of {@code labels}. */
  public static double value(String text, String name, String... labels) {
    return samples(text, name).stream().filter(s -> Arrays.stream(labels).allMatch(s::contains))
        .mapToDouble(s -> {
          Matcher m = NUMBER.matcher(s);
          return m.find() ? Double.parseDouble(m.group(1)) : 0;
        }).sum();
  }

  /** The node's own samples: without those of its worker processes (labelled {@code worker}). */
  public static String own(String text) {
    return String.join("\n", text.lines().filter(l -> !l.contains("worker=\"")).toList());
  }
}
