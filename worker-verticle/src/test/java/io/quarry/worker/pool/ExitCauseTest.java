package io.quarry.worker.pool;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.WorkerClient;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** How a worker process's end reads to its callers and to operators. */
class ExitCauseTest {

  @Test
  @DisplayName("a full heap (exit 3) or the JVM's or C++'s allocation failure is a memory failure")
  void memory() {
    assertThat(ExitCause.of(ExitCause.HEAP_EXHAUSTED, List.of()).message()).isEqualTo(WorkerClient.OUT_OF_MEMORY);
    assertThat(ExitCause.of(134, List.of("# There is insufficient memory for the Java Runtime Environment to continue.",
        "# Native memory allocation (malloc) failed to allocate 1048576 bytes")).memory()).isTrue();
    assertThat(ExitCause.of(134, List.of("terminate called after throwing an instance of 'std::bad_alloc'")).memory())
        .isTrue();
    assertThat(ExitCause.of(3, List.of()).describe()).isEqualTo("out of memory, exit status 3");
  }

  @Test
  @DisplayName("a signal or a crash is 'stopped unexpectedly'; a query DuckDB already failed for memory does not count")
  void stopped() {
    ExitCause killed = ExitCause.of(137, List.of("12:00:00 INFO Worker ready", ""));
    assertThat(killed.message()).isEqualTo(WorkerClient.STOPPED);
    assertThat(killed.describe()).isEqualTo("killed by signal 9");
    assertThat(killed.lastLine()).isEqualTo("12:00:00 INFO Worker ready");
    assertThat(ExitCause.of(1, List.of("Out of Memory Error: could not allocate block of size 256 KiB")).memory())
        .isFalse();
  }
}
