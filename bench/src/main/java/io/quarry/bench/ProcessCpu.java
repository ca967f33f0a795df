package io.quarry.bench;

import com.sun.management.OperatingSystemMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * CPU used so far, in nanoseconds: by this JVM, by the processes it started (a node's worker processes), and by the
 * Chromium it drives.
 */
final class ProcessCpu {

  private static final OperatingSystemMXBean OS =
      (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  /** Linux's clock ticks a second as /proc reports them (USER_HZ). */
  private static final long NANOS_A_TICK = 10_000_000;

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

  /**
   * Every Chromium process this JVM started (through Playwright's driver), alive now, with what those have reaped: a
   * renderer that ended with its browser context is counted in the process that waited for it.
   */
  static long chromium() {
    return ProcessHandle.current().descendants()
        .filter(p -> p.info().command().map(c -> c.contains("chrom")).orElse(false))
        .mapToLong(ProcessCpu::ticksWithReaped).sum() * NANOS_A_TICK;
  }

  /** utime, stime, cutime and cstime of /proc/PID/stat; 0 for a process that has ended since. */
  private static long ticksWithReaped(ProcessHandle process) {
    try {
      String stat = Files.readString(Path.of("/proc/" + process.pid() + "/stat"));
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return Long.parseLong(fields[11]) + Long.parseLong(fields[12]) + Long.parseLong(fields[13])
          + Long.parseLong(fields[14]);
    } catch (IOException e) {
      return 0;
    }
  }
}
