package io.quarry.bus.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ConfiguredHeapTest {

  /** Run in a JVM of its own, with the heap and collector a worker process has. */
  public static void main(String[] args) {
    System.out.print(ConfiguredHeap.maxBytes() + " " + Runtime.getRuntime().maxMemory());
  }

  @Test
  @DisplayName("the heap is what -Xmx says, where the serial collector's Runtime.maxMemory() says 247.5 MB of 256")
  void asConfigured() throws Exception {
    Process java = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
        ConfiguredHeapTest.class.getName()).redirectErrorStream(true).start();
    assertThat(java.waitFor(60, TimeUnit.SECONDS)).isTrue();
    String[] said = new String(java.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim().split(" ");
    assertThat(Long.parseLong(said[0])).isEqualTo(256L << 20);
    assertThat(Long.parseLong(said[1])).as("what Runtime says, for comparison").isLessThan(256L << 20);
  }
}
