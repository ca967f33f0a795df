package io.quarry.worker.pool;

import io.quarry.bus.Sha256;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/**
 * A class-data-sharing archive of the classes a worker process loads (Vert.x, Hazelcast, DuckDB's
 * driver ...), which makes a worker start about a third faster. The first worker to end normally
 * writes it ({@code -XX:ArchiveClassesAtExit}); every later one maps it. It is keyed by the JVM and the
 * exact class path, so a new jar or JVM makes a new one; the JVM ignores an archive it cannot use.
 */
final class ClassArchive {

  /** The JVM reports every class it cannot archive; those lines say nothing to an operator. */
  private static final String QUIET = "-Xlog:cds=off,cds+dynamic=off";

  private final Path archive;
  /** The worker writing the archive (at its exit), if any. */
  private String writer;

  private ClassArchive(Path archive) {
    this.archive = archive;
  }

  /**
   * The archive for workers started from {@code classPath}, or none when Quarry does not run from a jar
   * (the JVM archives classes from jar files only; from class directories a worker would only pay
   * for an archive it cannot write).
   */
  static ClassArchive in(Path directory, String classPath) {
    return new ClassArchive(fromJar() ? directory.resolve("worker-" + key(classPath) + ".jsa") : null);
  }

  private static boolean fromJar() {
    var source = ClassArchive.class.getProtectionDomain().getCodeSource();
    return source != null && source.getLocation().getPath().endsWith(".jar");
  }

  /** JVM options for a worker process: use the archive, or (one worker at a time) write it. */
  synchronized List<String> options(String workerId) {
    if (archive == null) {
      return List.of();
    }
    if (Files.isRegularFile(archive)) {
      return List.of("-XX:SharedArchiveFile=" + archive, QUIET);
    }
    if (writer != null) {
      return List.of();
    }
    try {
      Files.createDirectories(archive.getParent());
    } catch (IOException e) {
      return List.of();
    }
    writer = workerId;
    return List.of("-XX:ArchiveClassesAtExit=" + pending(workerId), QUIET);
  }

  /** Whether this worker writes the archive as it exits, which takes it seconds more to end. */
  synchronized boolean writing(String workerId) {
    return workerId.equals(writer);
  }

  private Path pending(String workerId) {
    return archive.resolveSibling(archive.getFileName() + "." + workerId);
  }

  /** A worker process ended: if it was writing the archive, the archive (when complete) is put in place. */
  synchronized void workerEnded(String workerId) {
    if (!workerId.equals(writer)) {
      return;
    }
    writer = null;
    Path pending = pending(workerId);
    try {
      if (Files.isRegularFile(pending) && !Files.exists(archive)) {
        Files.move(pending, archive, StandardCopyOption.ATOMIC_MOVE);
        removeLeftovers();
      }
      Files.deleteIfExists(pending);
    } catch (IOException e) {
      // Another node put its archive in place first, or the directory is read-only: workers start without.
    }
  }

  /** Archives begun by workers whose node was killed before it could put them in place. */
  private void removeLeftovers() throws IOException {
    String prefix = archive.getFileName() + ".";
    try (var siblings = Files.list(archive.getParent())) {
      for (Path sibling : siblings.filter(p -> p.getFileName().toString().startsWith(prefix)).toList()) {
        Files.deleteIfExists(sibling);
      }
    }
  }

  private static String key(String classPath) {
    StringBuilder identity = new StringBuilder(System.getProperty("java.home")).append('\n')
        .append(System.getProperty("java.vm.version")).append('\n');
    for (String entry : classPath.split(java.io.File.pathSeparator)) {
      Path path = Path.of(entry).toAbsolutePath();
      identity.append(path).append(' ');
      try {
        identity.append(Files.size(path)).append(' ').append(Files.getLastModifiedTime(path).toMillis());
      } catch (IOException | RuntimeException e) {
        identity.append("absent");
      }
      identity.append('\n');
    }
    return Sha256.hex(identity.toString()).substring(0, 24);
  }
}
