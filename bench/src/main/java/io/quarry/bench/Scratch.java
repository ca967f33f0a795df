package io.quarry.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Temporary directories deleted when the benchmark's JVM exits: worker caches hold gigabytes. */
final class Scratch {

  private Scratch() {
  }

  static Path dir(String prefix) throws IOException {
    Path dir = Files.createTempDirectory(prefix);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(dir)));
    return dir;
  }

  private static void delete(Path dir) {
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
