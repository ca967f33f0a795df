package io.quarry.testing;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ClassCpuTest {

  /** A worker's stat line: its name holds a space and a parenthesis, as a thread's or a script's may. */
  private static final String STAT = "4242 (quarry (w) 1) S 4200 4242 4200 0 -1 4194304 9000 0 0 0 250 31 700 45 20 0"
      + " 40 0 123456 3000000000 30000 18446744073709551615 1 1 0 0 0 0 0 4096 17630 0 0 0 17 1 0 0 0 0 0";

  @Test
  @DisplayName("reads a process's user and system ticks from /proc/PID/stat, with its reaped children's when asked,"
      + " whatever its name holds")
  void ticks() {
    assertThat(ClassCpu.ticks(STAT, false)).isEqualTo(250 + 31);
    assertThat(ClassCpu.ticks(STAT, true)).isEqualTo(250 + 31 + 700 + 45);
  }

  @Test
  @DisplayName("a line per class: CPU seconds of the tree, of the JVM alone, wall seconds, then the class")
  void line() {
    assertThat(ClassCpu.line("io.quarry.app.SomeTest", 14_790, 3_010, 239_900_000_000L))
        .isEqualTo("  147.9    30.1   239.9 io.quarry.app.SomeTest\n");
  }
}
