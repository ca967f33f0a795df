package io.quarry.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class JarCommandTest {

  @Test
  @DisplayName("no port is handed out twice in a JVM, alone or in a block, though all are free until their servers bind"
      + " them: 1,000 ports and a block of 10 among 10,000 would otherwise meet")
  void portsHandedOutOnce() {
    Set<Integer> handed = new HashSet<>();
    for (int i = 0; i < 1_000; i++) {
      assertThat(handed.add(JarCommand.freePort())).as("port %d handed out again", i).isTrue();
    }
    int block = JarCommand.freeBlock(10);
    assertThat(IntStream.range(block, block + 10)).noneMatch(handed::contains);
    assertThat(handed).allMatch(port -> port >= 20_000 && port < 30_000);
  }
}
