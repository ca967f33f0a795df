package io.quarry.bench;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;

/** CPU used so far, in nanoseconds: by this JVM, and by the processes it started (a node's worker processes). */
final class ProcessCpu {

  private static final OperatingSystemMXBean OS =
      (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  private ProcessCpu() {
  }

  static long self() {
    return OS.getProcessCpuTime();
  }

  /** Counted by the kernel in clock ticks (10 ms here): read it over a second or more, not per call. */
  static long children() {
    return ProcessHandle.current().children().mapToLong(p -> p.info().totalCpuDuration()
        .map(Duration::toNanos).orElse(0L)).sum();
  }
}
