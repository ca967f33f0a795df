package io.quarry.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The CPU of every Chromium process this JVM started (through Playwright's driver), alive now, with what those have
 * reaped: a renderer that ended with its browser context is counted in the process that waited for it.
 */
final class ChromiumCpu {

  /** Linux's clock ticks a second as /proc reports them (USER_HZ). */
  private static final long NANOS_A_TICK = 10_000_000;

  private ChromiumCpu() {
  }

  static long nanos() {
    return ProcessHandle.current().descendants()
        .filter(p -> p.info().command().map(c -> c.contains("chrom")).orElse(false))
        .mapToLong(ChromiumCpu::ticks).sum() * NANOS_A_TICK;
  }

  /** utime, stime, cutime and cstime of /proc/PID/stat; 0 for a process that has ended since. */
  private static long ticks(ProcessHandle process) {
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
