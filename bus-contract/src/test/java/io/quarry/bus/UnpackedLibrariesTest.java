package io.quarry.bus;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class UnpackedLibrariesTest {

  @Test
  @DisplayName("of what a process maps, only the named library's copies in the temporary directory, still on disk,"
      + " are taken, each once")
  void mappedCopies() {
    Path temp = Path.of("/srv/quarry/tmp");
    List<String> maps = List.of(
        "7f00-7f10 r--p 00000000 fd:00 11 /srv/quarry/tmp/libduckdb_java123.so",
        "7f10-7f20 r-xp 00010000 fd:00 11 /srv/quarry/tmp/libduckdb_java123.so",
        "7f20-7f30 r--p 00000000 fd:00 12 /srv/quarry/tmp/libduckdb_java456.so (deleted)",
        "7f30-7f40 r--p 00000000 fd:00 13 /usr/lib/libduckdb_java789.so",
        "7f40-7f50 r--p 00000000 fd:00 14 /srv/quarry/tmp/libnetty_tcnative_linux_x86_64.so",
        "7f50-7f60 rw-p 00000000 00:00 0 [heap]",
        "7f58-7f5c rw-p 00000000 00:00 0",
        "7f60-7f70 r--p 00000000 fd:00 15 /srv/quarry/tmp/sub dir/libduckdb_java000.so");

    assertThat(UnpackedLibraries.mapped(maps, temp, name -> name.startsWith("libduckdb_java")))
        .containsExactly(temp.resolve("libduckdb_java123.so"));
  }
}
