package io.quarry.bus;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Predicate;

/**
 * Drivers that copy their native library into a temporary directory at every start and delete the copy only on a
 * clean exit (DuckDB's, 72 MB; SQLite's, 1 MB): a process killed outright (SIGKILL, the kernel's out-of-memory
 * killer, a crash) left its copy there for good, one per crash of a node restarted in a loop. Once the library is
 * loaded its copy can go: the process keeps it mapped, and nothing opens it again. Where the kernel lists what a
 * process maps ({@code /proc/self/maps}, Linux); elsewhere a copy stays until exit, as before. Internal: the storage
 * and worker roles share it; no part of the bus contract.
 */
public final class UnpackedLibraries {

  private static final Path MAPS = Path.of("/proc/self/maps");

  private UnpackedLibraries() {
  }

  /** Deletes the files of {@code temp} this process maps whose names {@code copy} accepts; those it deleted. Blocks. */
  public static List<Path> forget(Path temp, Predicate<String> copy) throws IOException {
    List<String> maps = maps();
    if (maps.isEmpty()) {
      return List.of();
    }
    // As the kernel names it: the real path, links resolved.
    List<Path> copies = mapped(maps, temp.toRealPath(), copy);
    for (Path file : copies) {
      Files.deleteIfExists(file);
    }
    return copies;
  }

  /** The files of {@code maps} (its lines) in {@code temp}, not deleted yet, whose names {@code copy} accepts. */
  public static List<Path> mapped(List<String> maps, Path temp, Predicate<String> copy) {
    return maps.stream()
        .map(line -> line.indexOf('/') < 0 ? "" : line.substring(line.indexOf('/')))
        .filter(file -> !file.isEmpty() && !file.endsWith(" (deleted)"))
        .map(Path::of)
        .filter(file -> temp.equals(file.getParent()) && copy.test(file.getFileName().toString()))
        .distinct()
        .toList();
  }

  /** What this process maps now (empty where the kernel does not say). Blocks. */
  public static List<String> maps() throws IOException {
    return Files.isReadable(MAPS) ? Files.readAllLines(MAPS) : List.of();
  }
}
