package io.quarry.app;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * What travels on the bus is read through its operation's records, which {@code bus-contract} alone decodes. A raw
 * read of a JSON key ({@code .getString("x")} and friends, or a bus key of {@code Keys} read or written by hand) in any
 * other module's main sources is counted, per file,
 * against {@code raw-json-reads.txt}: the reads of JSON that does not travel on the bus (HTTP bodies, settings, the
 * model's JSON) as they stand. A new one fails here; moving a read into a record lowers the file's count.
 */
class RawJsonReadsTest {

  private static final Pattern READ = Pattern.compile(
      "\\.(getString|getJsonObject|getJsonArray|getInteger|getLong|getBoolean|getDouble|getValue)\\(\"|required\\(body"
          + "|\\.(get\\w*|put)\\(Keys\\.");
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  @Test
  @DisplayName("no module but bus-contract reads a new raw JSON key")
  void noNewRawReads() throws IOException {
    Map<String, Integer> allowed = new TreeMap<>();
    for (String line : Files.readAllLines(Path.of("src/test/resources/raw-json-reads.txt"))) {
      if (!line.isBlank() && !line.startsWith("#")) {
        String[] parts = line.trim().split("\\s+");
        allowed.put(parts[0], Integer.parseInt(parts[1]));
      }
    }
    Map<String, Integer> found = reads();
    // Every file over its count at once, not the first alone.
    SoftAssertions softly = new SoftAssertions();
    found.forEach((file, count) -> softly.assertThat(count).as("raw JSON reads in %s (allowed %s): read through a"
        + " record of bus-contract instead", file, allowed.getOrDefault(file, 0))
        .isLessThanOrEqualTo(allowed.getOrDefault(file, 0)));
    softly.assertAll();
  }

  /** Every main source file outside bus-contract (and the benchmarks) with its count of raw reads. */
  static Map<String, Integer> reads() throws IOException {
    Map<String, Integer> found = new TreeMap<>();
    try (Stream<Path> files = Files.walk(ROOT)) {
      for (Path file : files.filter(RawJsonReadsTest::mainSource).toList()) {
        Matcher m = READ.matcher(Files.readString(file));
        int count = 0;
        while (m.find()) {
          count++;
        }
        if (count > 0) {
          found.put(ROOT.relativize(file).toString(), count);
        }
      }
    }
    return found;
  }

  private static boolean mainSource(Path file) {
    String path = ROOT.relativize(file).toString();
    return path.endsWith(".java") && path.contains("/src/main/java/") && !path.startsWith("bus-contract/")
        && !path.startsWith("bench/") && !path.contains("/target/");
  }
}
