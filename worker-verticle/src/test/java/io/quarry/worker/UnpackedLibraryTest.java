package io.quarry.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.quarry.bus.UnpackedLibraries;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** A process killed outright leaves no copy of DuckDB's library behind: the copy goes once the library is loaded. */
class UnpackedLibraryTest {

  @Test
  @DisplayName("once DuckDB is loaded its unpacked copy is deleted, and DuckDB goes on answering")
  void copyDeletedOnceLoaded() throws Exception {
    assumeTrue(!UnpackedLibraries.maps().isEmpty(), "the kernel lists what a process maps (Linux)");
    try (Connection first = DriverManager.getConnection("jdbc:duckdb:")) {
      UnpackedLibrary.forget();
      var temp = UnpackedLibrary.temp().toRealPath();
      assertThat(UnpackedLibraries.mapped(UnpackedLibraries.maps(), temp, UnpackedLibrary::isCopy))
          .as("copies still on disk").isEmpty();
      assertThat(UnpackedLibraries.maps()).as("the library, mapped still")
          .anyMatch(line -> line.contains(UnpackedLibrary.PREFIX) && line.endsWith(" (deleted)"));
      try (Connection second = DriverManager.getConnection("jdbc:duckdb:"); Statement s = second.createStatement();
           ResultSet rs = s.executeQuery("SELECT 42")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getInt(1)).isEqualTo(42);
      }
    }
  }
}
