package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A worker-only node's start limit is the documented setting, and the node says which when it is passed. */
class WorkerStartLimitTest {

  @TempDir
  Path dir;

  @Test
  @DisplayName("a worker-only node whose worker is not ready within QUARRY_LOCAL_WORKERS_START_TIMEOUT_MS stops,"
      + " naming the setting to raise")
  void namesTheSetting() {
    Map<String, String> env = new java.util.HashMap<>(TestNodes.env(dir));
    env.put("QUARRY_LOCAL_WORKERS_START_TIMEOUT_MS", "1");
    assertThatThrownBy(() -> TestNodes.start(env, dir, "--roles", "worker"))
        .hasMessageStartingWith("worker failed to start: The workers were not ready within 0.0 s of their start"
            + " (localWorkers.startTimeoutMs, QUARRY_LOCAL_WORKERS_START_TIMEOUT_MS; a loaded host may need more): ");
  }
}
