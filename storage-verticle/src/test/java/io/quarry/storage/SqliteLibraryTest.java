package io.quarry.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.quarry.bus.UnpackedLibraries;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A node killed outright leaves no copy of SQLite's library behind: the copy goes once the library is loaded. */
class SqliteLibraryTest {

  @TempDir
  Path dir;

  @Test
  @DisplayName("once SQLite is loaded its unpacked copy and the .lck beside it are deleted, and SQLite goes on"
      + " answering")
  void copyDeletedOnceLoaded() throws Exception {
    assumeTrue(!UnpackedLibraries.maps().isEmpty(), "the kernel lists what a process maps (Linux)");

    SqliteLibrary.loadAndForget();

    Path temp = SqliteLibrary.temp().toRealPath();
    assertThat(UnpackedLibraries.mapped(UnpackedLibraries.maps(), temp, SqliteLibrary::isCopy))
        .as("copies still on disk").isEmpty();
    var loaded = UnpackedLibraries.maps().stream().filter(line -> line.contains("libsqlitejdbc")).toList();
    assertThat(loaded).as("the library, mapped still").isNotEmpty().allMatch(line -> line.endsWith(" (deleted)"));
    String copy = loaded.get(0).substring(loaded.get(0).indexOf('/'), loaded.get(0).length() - " (deleted)".length());
    assertThat(Path.of(copy + ".lck")).doesNotExist();
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("t.db"));
         Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT 42")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getInt(1)).isEqualTo(42);
    }
  }

  @Test
  @DisplayName("the driver's copies are told from other files by their names")
  void copiesByName() {
    assertThat(SqliteLibrary.isCopy("sqlite-3.54.1.0-f97a2767-6788-4540-83f0-835ce4924e1b-libsqlitejdbc.so")).isTrue();
    assertThat(SqliteLibrary.isCopy("libduckdb_java123.so")).isFalse();
    assertThat(SqliteLibrary.isCopy("sqlite-notes.txt")).isFalse();
  }
}
