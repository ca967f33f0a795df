package io.quarry.worker;

import io.quarry.bus.UnpackedLibraries;
import java.io.IOException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * DuckDB's driver copies its 72 MB native library into the temporary directory at every start: once the library is
 * loaded, the copy is deleted (see {@link UnpackedLibraries}).
 */
final class UnpackedLibrary {

  private static final Logger log = LoggerFactory.getLogger(UnpackedLibrary.class);
  static final String PREFIX = "libduckdb_java";

  private UnpackedLibrary() {
  }

  /** Deletes the copies of DuckDB's library this process maps from the temporary directory; blocks. */
  static void forget() {
    try {
      UnpackedLibraries.forget(temp(), UnpackedLibrary::isCopy);
    } catch (IOException | InvalidPathException e) {
      log.debug("DuckDB's unpacked library is left until exit: {}", e.toString());
    }
  }

  static Path temp() {
    return Path.of(System.getProperty("java.io.tmpdir"));
  }

  static boolean isCopy(String name) {
    return name.startsWith(PREFIX);
  }
}
