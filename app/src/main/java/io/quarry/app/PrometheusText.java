package io.quarry.app;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Prometheus's text format, as a node serves it for itself and its worker processes: one exposition in which each
 * metric family is declared once, its samples from the node as they are and those of each worker process labelled
 * {@code worker="<name>"}. (Two expositions one after the other would declare {@code jvm_memory_used_bytes} twice,
 * which Prometheus refuses.)
 */
final class PrometheusText {

  private PrometheusText() {
  }

  /** {@code own}: this process's exposition; {@code byWorker}: each worker process's, by its name. */
  static String merge(String own, Map<String, String> byWorker) {
    Map<String, Family> families = new LinkedHashMap<>();
    read(own, null, families);
    byWorker.forEach((worker, text) -> read(text, worker, families));
    StringBuilder out = new StringBuilder(own.length() * (1 + byWorker.size()));
    families.values().forEach(f -> f.write(out));
    return out.toString();
  }

  private static void read(String text, String worker, Map<String, Family> families) {
    Family current = null;
    for (String line : text.split("\n")) {
      if (line.isBlank() || line.startsWith("# EOF")) {
        continue;
      }
      if (line.startsWith("# HELP ") || line.startsWith("# TYPE ")) {
        current = families.computeIfAbsent(line.substring(7).split(" ", 2)[0], name -> new Family());
        current.declare(line);
      } else if (!line.startsWith("#") && current != null) {
        current.samples.add(worker == null ? line : labelled(line, worker));
      }
    }
  }

  /** {@code name{a="1"} 2} → {@code name{worker="w",a="1"} 2}; {@code name 2} → {@code name{worker="w"} 2}. */
  static String labelled(String sample, String worker) {
    String label = "worker=\"" + worker.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    int brace = sample.indexOf('{');
    int space = sample.indexOf(' ');
    if (brace >= 0 && (space < 0 || brace < space)) {
      boolean empty = sample.charAt(brace + 1) == '}';
      return sample.substring(0, brace + 1) + label + (empty ? "" : ",") + sample.substring(brace + 1);
    }
    return sample.substring(0, space) + "{" + label + "}" + sample.substring(space);
  }

  /** One metric family: its HELP and TYPE lines, once, and every sample of it. */
  private static final class Family {
    final List<String> header = new ArrayList<>();
    final List<String> samples = new ArrayList<>();

    /** Keeps a HELP or TYPE line unless the family already has one of that kind. */
    void declare(String line) {
      String kind = line.substring(0, 7);
      if (header.stream().noneMatch(h -> h.startsWith(kind))) {
        header.add(line);
      }
    }

    void write(StringBuilder out) {
      header.forEach(h -> out.append(h).append('\n'));
      samples.forEach(s -> out.append(s).append('\n'));
    }
  }
}
