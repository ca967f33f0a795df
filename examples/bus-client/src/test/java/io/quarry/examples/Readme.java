package io.quarry.examples;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The commands a README shows: what a test runs must be what a reader copies. */
final class Readme {

  private Readme() {
  }

  /** The text of the first {@code sh} block under the heading {@code heading} (a whole line). */
  static String shellBlock(Path readme, String heading) throws IOException {
    List<String> lines = Files.readAllLines(readme);
    int at = lines.indexOf(heading);
    if (at < 0) {
      throw new IllegalStateException(readme + " has no heading '" + heading + "'");
    }
    int start = lines.subList(at, lines.size()).indexOf("```sh") + at + 1;
    int end = lines.subList(start, lines.size()).indexOf("```") + start;
    if (start <= at || end < start || lines.subList(at + 1, start).stream().anyMatch(l -> l.startsWith("## "))) {
      throw new IllegalStateException(readme + " has no sh block under '" + heading + "'");
    }
    return String.join("\n", lines.subList(start, end)) + "\n";
  }
}
