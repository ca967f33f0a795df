package io.quarry.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;

/**
 * What each test class cost in CPU: the test JVM and every process it started (nodes' worker JVMs, Chromium, jar nodes,
 * PostgreSQL), a line per class appended to {@code target/class-cpu.txt} of the module that ran it. The suite is bound
 * by CPU on two cores, so this, not a class's wall time (which the other forks' load stretches), says where its time
 * goes: {@code sort -rn app-tests/target/class-cpu.txt | head}. Registered for every module whose tests use test-support.
 */
public final class ClassCpu implements TestExecutionListener {

  static final Path REPORT = Path.of("target", "class-cpu.txt");

  private record Start(long ticks, long ownTicks, long nanos) {
  }

  private final Map<String, Start> started = new ConcurrentHashMap<>();

  @Override
  public void executionStarted(TestIdentifier test) {
    if (test.getSource().orElse(null) instanceof ClassSource) {
      started.put(test.getUniqueId(), new Start(treeTicks(), ownTicks(), System.nanoTime()));
    }
  }

  @Override
  public void executionFinished(TestIdentifier test, TestExecutionResult result) {
    Start start = started.remove(test.getUniqueId());
    if (start != null && test.getSource().orElse(null) instanceof ClassSource source) {
      append(line(source.getClassName(), treeTicks() - start.ticks(), ownTicks() - start.ownTicks(),
          System.nanoTime() - start.nanos()));
    }
  }

  /** CPU seconds of the JVM and its processes, of the JVM alone, wall seconds, the class. */
  static String line(String className, long ticks, long ownTicks, long nanos) {
    return String.format(Locale.ROOT, "%7.1f %7.1f %7.1f %s%n", ticks / 100.0, ownTicks / 100.0, nanos / 1e9,
        className);
  }

  /**
   * This JVM's CPU and its live descendants', with what each has of its children that ended (the kernel adds an ended
   * child's CPU to its parent's when the parent reaps it, as Process does): nothing counted twice, nothing lost.
   */
  private static long treeTicks() {
    long ticks = ticks(ProcessHandle.current().pid(), true);
    try (Stream<ProcessHandle> descendants = ProcessHandle.current().descendants()) {
      ticks += descendants.mapToLong(p -> ticks(p.pid(), true)).sum();
    }
    return ticks;
  }

  private static long ownTicks() {
    return ticks(ProcessHandle.current().pid(), false);
  }

  /** Clock ticks (hundredths of a second on Linux) from /proc; 0 elsewhere, or for a process already gone. */
  private static long ticks(long pid, boolean withEndedChildren) {
    try {
      return ticks(Files.readString(Path.of("/proc", String.valueOf(pid), "stat")), withEndedChildren);
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }

  /** From a /proc/PID/stat line: user and system time, and those of reaped children. */
  static long ticks(String stat, boolean withEndedChildren) {
    // The command's name, in parentheses, may itself hold spaces and parentheses.
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    return withEndedChildren ? ticks + Long.parseLong(fields[13]) + Long.parseLong(fields[14]) : ticks;
  }

  /** One write in append mode: the forks of a module append to one file, a line each without interleaving. */
  private static void append(String line) {
    try {
      Files.createDirectories(REPORT.getParent());
      Files.write(REPORT, line.getBytes(StandardCharsets.UTF_8), StandardOpenOption.CREATE,
          StandardOpenOption.APPEND, StandardOpenOption.WRITE);
    } catch (IOException e) {
      // A report, not a test: a module without a target directory to write in runs its tests all the same.
    }
  }
}
