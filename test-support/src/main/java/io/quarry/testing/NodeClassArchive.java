package io.quarry.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The class archive the jar's nodes in tests map: written once per build of the jar, by the jar's own
 * {@code java -jar quarry.jar class-archive FILE}, beside the jar and named by its size and time (a rebuilt jar gets
 * another). The integration tests' JVMs take turns through a file lock: the first writes it, the others wait for it.
 */
public final class NodeClassArchive {

  private static final long WRITE_LIMIT_S = 300;

  private NodeClassArchive() {
  }

  public static synchronized Path of(Path jar) {
    try {
      Path archive = jar.resolveSibling("quarry-" + Files.size(jar) + "-" + Files.getLastModifiedTime(jar).toMillis()
          + ".jsa");
      try (FileChannel lock = FileChannel.open(jar.resolveSibling("quarry-class-archive.lock"),
          StandardOpenOption.CREATE, StandardOpenOption.WRITE); FileLock held = lock.lock()) {
        if (!Files.isRegularFile(archive)) {
          write(jar, archive);
        }
      }
      return archive;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void write(Path jar, Path archive) throws IOException {
    Process process = new ProcessBuilder(JarCommand.of(jar, List.of(), "class-archive", archive.toString()))
        .redirectErrorStream(true).start();
    try {
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!process.waitFor(WRITE_LIMIT_S, TimeUnit.SECONDS) || process.exitValue() != 0) {
        throw new IllegalStateException("class-archive failed: " + output);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } finally {
      process.destroyForcibly();
    }
  }
}
