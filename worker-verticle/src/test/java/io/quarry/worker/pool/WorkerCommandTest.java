package io.quarry.worker.pool;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(VertxExtension.class)
class WorkerCommandTest {

  @TempDir
  Path dir;

  /**
   * A command whose library jar cannot be made (its directory is a file), so that workers start from this class path:
   * what is tested here is when the command is made, not the jar (StoredNativeLibraryTest).
   */
  private WorkerCommand command(Vertx vertx, Path home) throws Exception {
    Path archives = Files.writeString(dir.resolve("archives"), "a file where the directory would be");
    return new WorkerCommand(LocalWorkersConfig.from(new JsonObject().put("memoryCapMb", 0)), "io.quarry.Main",
        archives, home, vertx.fileSystem());
  }

  @Test
  @DisplayName("the first process's command clears what an earlier run's processes left, once: a process started"
      + " later leaves the running ones' files alone")
  void preparedOnce(Vertx vertx) throws Exception {
    Path home = Files.createDirectories(dir.resolve("workers"));
    Path leftover = Files.createDirectories(home.resolve("tmp").resolve("killed-worker")).resolve("libduckdb_java.so");
    Files.writeString(leftover, "a copy a killed worker left");
    WorkerCommand command = command(vertx, home);

    var first = command.build(1, "node", "worker-a", home.resolve("worker-1.json")).command();
    assertThat(leftover).doesNotExist();
    assertThat(first).containsSequence("-cp", System.getProperty("java.class.path"), "io.quarry.Main");
    Path running = Files.writeString(home.resolve("tmp").resolve("worker-a").resolve("libduckdb_java.so"), "in use");

    command.prepare();
    command.build(2, "node", "worker-b", home.resolve("worker-2.json"));
    assertThat(running).as("the running process's own files").exists();
    assertThat(home.resolve("tmp").resolve("worker-b")).isDirectory();
  }
}
