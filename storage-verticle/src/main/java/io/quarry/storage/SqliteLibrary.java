package io.quarry.storage;

import io.quarry.bus.UnpackedLibraries;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sqlite.SQLiteJDBCLoader;

/**
 * SQLite's driver copies its native library (1 MB, and an empty {@code .lck} beside it) into the temporary directory
 * at every start and deletes both only on a clean exit: each node killed outright left them in {@code /tmp} for good
 * (its own clean-up keeps every copy whose {@code .lck} is there). Loaded before the database opens, and the copy
 * deleted then (see {@link UnpackedLibraries}).
 */
final class SqliteLibrary {

  private static final Logger log = LoggerFactory.getLogger(SqliteLibrary.class);

  private SqliteLibrary() {
  }

  /** Loads the library and deletes the copy it was loaded from, with its {@code .lck}. Blocks. */
  static void loadAndForget() {
    try {
      SQLiteJDBCLoader.initialize();
      for (Path copy : UnpackedLibraries.forget(temp(), SqliteLibrary::isCopy)) {
        Files.deleteIfExists(copy.resolveSibling(copy.getFileName() + ".lck"));
      }
    } catch (Exception e) {
      // The database's opening says what went wrong with the library itself; a copy left is what it was before.
      log.debug("SQLite's unpacked library is left until exit: {}", e.toString());
    }
  }

  /** Where the driver copies it ({@code org.sqlite.tmpdir}, else the JVM's temporary directory). */
  static Path temp() {
    return Path.of(System.getProperty("org.sqlite.tmpdir", System.getProperty("java.io.tmpdir")));
  }

  /** The driver's names for its copies: {@code sqlite-<version>-<uuid>-libsqlitejdbc.so}. */
  static boolean isCopy(String name) {
    return name.startsWith("sqlite-") && name.contains("libsqlitejdbc");
  }
}
