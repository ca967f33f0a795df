package io.quarry.worker.pool;

import io.quarry.bus.WorkerClient;
import java.util.List;

/** Why a worker process ended, read from its exit status and its last output lines. */
record ExitCause(int exitCode, boolean memory, String lastLine) {

  /** The JVM's status for -XX:+ExitOnOutOfMemoryError. */
  static final int HEAP_EXHAUSTED = 3;

  /**
   * What a process says as it dies of memory: the JVM's heap or native allocation failure, or a C++
   * allocation failure DuckDB could not turn into an error. (DuckDB's own handled "Out of Memory Error"
   * fails only the query, and does not end the process.)
   */
  private static final List<String> MEMORY_SIGNS = List.of("java.lang.OutOfMemoryError",
      "insufficient memory for the Java Runtime Environment", "std::bad_alloc");

  static ExitCause of(int exitCode, List<String> tail) {
    boolean memory = exitCode == HEAP_EXHAUSTED
        || tail.stream().anyMatch(line -> MEMORY_SIGNS.stream().anyMatch(line::contains));
    String last = tail.stream().filter(line -> !line.isBlank()).reduce((a, b) -> b).orElse("");
    return new ExitCause(exitCode, memory, last);
  }

  /** What the caller of a query that was running on the process hears. */
  String message() {
    return memory ? WorkerClient.OUT_OF_MEMORY : WorkerClient.STOPPED;
  }

  /** For operators: the status (128 + n is signal n, e.g. 137 for SIGKILL) and the cause. */
  String describe() {
    String status = exitCode > 128 ? "killed by signal " + (exitCode - 128) : "exit status " + exitCode;
    return (memory ? "out of memory, " : "") + status;
  }
}
