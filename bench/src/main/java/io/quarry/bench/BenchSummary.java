package io.quarry.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Issue 53's table, gathered over the benchmarks that measure its rows ({@code bench/run.sh lean [before.jar]}): each
 * benchmark run with {@code -Dbench.summary=FILE} appends the figures it measured there, one line per figure and jar;
 * {@link #main} prints them as one table, a column per jar, the rows in the order they were measured. Without the
 * property a benchmark only prints its own report, as ever.
 */
public final class BenchSummary {

  private static final String FILE = System.getProperty("bench.summary");

  private BenchSummary() {
  }

  /** Records one figure of {@code jar}'s node (or of this build, when it runs in the benchmark's own JVM). */
  static void row(String figure, Object jar, String value) {
    if (FILE == null) {
      return;
    }
    String line = clean(figure) + "\t" + clean(String.valueOf(jar)) + "\t" + clean(value) + "\n";
    try {
      Files.writeString(Path.of(FILE), line, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String clean(String text) {
    return text.replace('\t', ' ').replace('\n', ' ');
  }

  /** Prints the table of the figures in the file {@code args[0]}. */
  public static void main(String[] args) throws IOException {
    Map<String, Map<String, String>> rows = new LinkedHashMap<>();
    List<String> jars = new ArrayList<>();
    for (String line : Files.readAllLines(Path.of(args[0]), StandardCharsets.UTF_8)) {
      String[] cells = line.split("\t", 3);
      if (cells.length < 3) {
        continue;
      }
      if (!jars.contains(cells[1])) {
        jars.add(cells[1]);
      }
      rows.computeIfAbsent(cells[0], figure -> new LinkedHashMap<>()).put(cells[1], cells[2]);
    }
    int figureWidth = rows.keySet().stream().mapToInt(String::length).max().orElse(6);
    List<Integer> widths = new ArrayList<>();
    for (String jar : jars) {
      widths.add(Math.max(jar.length(), rows.values().stream().mapToInt(r -> r.getOrDefault(jar, "").length()).max()
          .orElse(0)));
    }
    StringBuilder header = new StringBuilder(pad("figure", figureWidth));
    for (int i = 0; i < jars.size(); i++) {
      header.append(" | ").append(pad(jars.get(i), widths.get(i)));
    }
    System.out.printf(Locale.ROOT, "%nIssue 53's table, %d cores, one run%n%s%n%s%n",
        Runtime.getRuntime().availableProcessors(), header, "-".repeat(header.length()));
    rows.forEach((figure, values) -> {
      StringBuilder line = new StringBuilder(pad(figure, figureWidth));
      for (int i = 0; i < jars.size(); i++) {
        line.append(" | ").append(pad(values.getOrDefault(jars.get(i), "—"), widths.get(i)));
      }
      System.out.println(line);
    });
  }

  private static String pad(String text, int width) {
    return text + " ".repeat(Math.max(0, width - text.length()));
  }
}
