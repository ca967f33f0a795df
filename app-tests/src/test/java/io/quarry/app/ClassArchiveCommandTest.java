package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClassArchiveCommandTest {

  @TempDir
  Path dir;

  @Test
  @DisplayName("outside the runnable jar (from class directories, whose classes the JVM does not archive, or the app"
      + " module's own jar, which java -jar cannot start) it refuses at once, saying so")
  void onlyFromTheJar() {
    assertThatThrownBy(() -> ClassArchiveCommand.run("class-archive", dir.resolve("q.jsa").toString()).await())
        .hasMessage("it is written from Quarry's jar (usage: java -jar quarry.jar class-archive FILE)");
    assertThat(dir.resolve("q.jsa")).doesNotExist();
  }

  @Test
  @DisplayName("a training node that stopped because its metrics port was taken meanwhile is started again; one that"
      + " stopped for any other reason (its web port taken, metrics refused otherwise) is not")
  void startsAgainOnlyWhenItsMetricsPortWasTaken() {
    String failed = "Quarry failed to start: metrics failed to start: " + MetricsEndpoint.CANNOT_SERVE
        + "127.0.0.1:40123 (metrics.port; 0 for none): ";
    assertThat(ClassArchiveCommand.metricsPortTaken(List.of("starting", failed + "Address already in use"))).isTrue();
    assertThat(ClassArchiveCommand.metricsPortTaken(List.of(failed + "bind(..) failed: Address already in use")))
        .isTrue();
    assertThat(ClassArchiveCommand.metricsPortTaken(List.of(failed + "Permission denied"))).isFalse();
    assertThat(ClassArchiveCommand.metricsPortTaken(List.of("Quarry failed to start: web failed to start: Cannot"
        + " listen on 127.0.0.1:8080: Address already in use"))).isFalse();
    assertThat(ClassArchiveCommand.metricsPortTaken(List.of())).isFalse();
  }
}
