package io.quarry.worker;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * DuckDB's driver copies its 72 MB native library into the temporary directory at every start, and deletes the copy
 * only on a clean exit: a process killed outright (SIGKILL, the kernel's out-of-memory killer, a crash in DuckDB) left
 * it there for good, one per crash of a worker node restarted in a loop. Once the library is loaded, the copy is
 * deleted: the process keeps it mapped, and nothing opens it again. Where the kernel lists what a process maps
 * ({@code /proc/self/maps}, Linux); elsewhere the copy stays until exit, as before.
 */
final class UnpackedLibrary {

  private static final Logger log = LoggerFactory.getLogger(UnpackedLibrary.class);
  private static final Path MAPS = Path.of("/proc/self/maps");
  static final String PREFIX = "libduckdb_java";

  private UnpackedLibrary() {
  }

  /** Deletes the copies of DuckDB's library this process maps from the temporary directory; blocks. */
  static void forget() {
    if (!Files.isReadable(MAPS)) {
      return;
    }
    try {
      // As the kernel names it: the real path, links resolved.
      Path temp = Path.of(System.getProperty("java.io.tmpdir")).toRealPath();
      for (Path copy : mapped(Files.readAllLines(MAPS), temp)) {
        Files.deleteIfExists(copy);
      }
    } catch (IOException | InvalidPathException e) {
      log.debug("DuckDB's unpacked library is left until exit: {}", e.toString());
    }
  }

  /** The files of {@code maps} (its lines) that are copies of DuckDB's library in {@code temp}. */
  static List<Path> mapped(List<String> maps, Path temp) {
    return maps.stream()
        .map(line -> line.indexOf('/') < 0 ? "" : line.substring(line.indexOf('/')))
        .filter(file -> !file.endsWith(" (deleted)"))
        .map(Path::of)
        .filter(file -> temp.equals(file.getParent()) && file.getFileName().toString().startsWith(PREFIX))
        .distinct()
        .toList();
  }
}
