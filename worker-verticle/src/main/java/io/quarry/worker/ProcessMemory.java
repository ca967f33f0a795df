package io.quarry.worker;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * This process's address space as Linux reports it: the cap the operating system holds it to, what it uses, and
 * the stack a native thread gets.
 */
public final class ProcessMemory {

  private ProcessMemory() {
  }

  /** The address-space limit ({@code RLIMIT_AS}, i.e. {@code ulimit -v}), or 0 when there is none. */
  public static long addressSpaceCap() {
    String soft = field(Path.of("/proc/self/limits"), "Max address space");
    return soft == null || soft.equals("unlimited") ? 0 : Long.parseLong(soft);
  }

  /** The stack limit ({@code RLIMIT_STACK}, i.e. {@code ulimit -s}): a native thread's stack; 0 when unlimited. */
  public static long stackLimit() {
    String soft = field(Path.of("/proc/self/limits"), "Max stack size");
    return soft == null || soft.equals("unlimited") ? 0 : Long.parseLong(soft);
  }

  /** The address space mapped now ({@code VmSize}), or 0 when it cannot be read. */
  public static long addressSpaceUsed() {
    String kb = field(Path.of("/proc/self/status"), "VmSize:");
    return kb == null ? 0 : Long.parseLong(kb) * 1024;
  }

  /** The first word after {@code label} on its line; null off Linux or without procfs, rather than a guess. */
  private static String field(Path file, String label) {
    try {
      for (String line : Files.readAllLines(file)) {
        if (line.startsWith(label)) {
          return line.substring(label.length()).strip().split("\\s+")[0];
        }
      }
    } catch (IOException | RuntimeException e) {
      // Not Linux, or no procfs.
    }
    return null;
  }
}
