package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
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
}
