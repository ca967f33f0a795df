package io.quarry.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** A process killed outright leaves no copy of DuckDB's library behind: the copy goes once the library is loaded. */
class UnpackedLibraryTest {

  private static final Path MAPS = Path.of("/proc/self/maps");

  @Test
  @DisplayName("of what a process maps, only DuckDB's library copies in the temporary directory are taken, each once")
  void mappedCopies() {
    Path temp = Path.of("/srv/quarry/tmp");
    List<String> maps = List.of(
        "7f00-7f10 r--p 00000000 fd:00 11 /srv/quarry/tmp/libduckdb_java123.so",
        "7f10-7f20 r-xp 00010000 fd:00 11 /srv/quarry/tmp/libduckdb_java123.so",
        "7f20-7f30 r--p 00000000 fd:00 12 /srv/quarry/tmp/libduckdb_java456.so (deleted)",
        "7f30-7f40 r--p 00000000 fd:00 13 /usr/lib/libduckdb_java789.so",
        "7f40-7f50 r--p 00000000 fd:00 14 /srv/quarry/tmp/libnetty_tcnative_linux_x86_64.so",
        "7f50-7f60 rw-p 00000000 00:00 0 [heap]",
        "7f60-7f70 r--p 00000000 fd:00 15 /srv/quarry/tmp/sub dir/libduckdb_java000.so");
    assertThat(UnpackedLibrary.mapped(maps, temp)).containsExactly(temp.resolve("libduckdb_java123.so"));
  }

  @Test
  @DisplayName("once DuckDB is loaded its unpacked copy is deleted, and DuckDB goes on answering")
  void copyDeletedOnceLoaded() throws Exception {
    assumeTrue(Files.isReadable(MAPS), "the kernel lists what a process maps (Linux)");
    try (Connection first = DriverManager.getConnection("jdbc:duckdb:")) {
      UnpackedLibrary.forget();
      Path temp = Path.of(System.getProperty("java.io.tmpdir")).toRealPath();
      assertThat(UnpackedLibrary.mapped(Files.readAllLines(MAPS), temp)).as("copies still on disk").isEmpty();
      assertThat(Files.readAllLines(MAPS)).as("the library, mapped still")
          .anyMatch(line -> line.contains(UnpackedLibrary.PREFIX) && line.endsWith(" (deleted)"));
      try (Connection second = DriverManager.getConnection("jdbc:duckdb:"); Statement s = second.createStatement();
           ResultSet rs = s.executeQuery("SELECT 42")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getInt(1)).isEqualTo(42);
      }
    }
  }
}
