package io.quarry.worker;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How many idle databases a worker keeps (see {@link DuckInstances}). Each is one set of table bindings, so a
 * node keeps one per conversation it serves, and a conversation without one pays ~30 ms of CPU to make it
 * (bench/run.sh databases), and more when many conversations take turns evicting each other's. What bounds them is
 * address space: an idle locked database maps the stacks of its background threads (one fewer than
 * {@code worker.duckdbThreads}, each as large as the process's stack limit) and about 4 MB more, 3.5 MB of it
 * resident. {@code bench/run.sh load} measured 11.7 MB with 8 MB stacks and 6.0 MB with 2 MB ones. It is worked
 * out, not measured at start: two workers that measured it side by side found 6.0 and 2.8 MB, as other threads mapped
 * and unmapped meanwhile. Under an address-space cap they get what is left once the process as it is now and every
 * running query's memory limit are counted; without one, as much as one query's memory limit.
 */
final class DatabaseBudget {

  /** Fewer than this and two users taking turns would already make a worker rebuild databases. */
  static final int MIN = 8;
  static final int MAX = 1_000;
  /** What an idle database maps besides its threads' stacks. */
  static final long PER_DATABASE_BYTES = 4L << 20;
  /** The stack a thread gets where the stack limit is unlimited or unknown. */
  static final long DEFAULT_STACK_BYTES = 8L << 20;

  private static final Pattern SIZE = Pattern.compile("\\s*(\\d+(?:\\.\\d+)?)\\s*([KMGT]?i?B)?\\s*",
      Pattern.CASE_INSENSITIVE);

  private DatabaseBudget() {
  }

  /** What one idle database maps: {@code duckdbThreads} less the caller's, each with a stack of {@code stackBytes}. */
  static long idleDatabaseBytes(int duckdbThreads, long stackBytes) {
    long stack = stackBytes > 0 ? stackBytes : DEFAULT_STACK_BYTES;
    return Math.max(0, duckdbThreads - 1) * stack + PER_DATABASE_BYTES;
  }

  /**
   * @param capBytes    the process's address-space cap, 0 for none
   * @param usedBytes   the address space the process maps now, with DuckDB loaded
   * @param queries     queries a worker runs at once, each up to {@code memoryLimit}
   */
  static int databases(String memoryLimit, int queries, long idleDatabaseBytes, long capBytes, long usedBytes) {
    long limit = bytes(memoryLimit);
    long budget = capBytes > 0 ? capBytes - usedBytes - queries * limit : limit;
    return (int) Math.max(MIN, Math.min(MAX, budget / Math.max(1, idleDatabaseBytes)));
  }

  /** A size as DuckDB reads {@code memory_limit}: KB, MB, GB, TB in powers of 1,000, KiB ... TiB of 1,024. */
  static long bytes(String size) {
    Matcher m = SIZE.matcher(size);
    if (!m.matches()) {
      throw new IllegalArgumentException("worker.memoryLimit: not a size: '" + size + "'");
    }
    String unit = m.group(2) == null ? "B" : m.group(2).toUpperCase(Locale.ROOT);
    int power = "BKMGT".indexOf(unit.charAt(0));
    double base = unit.contains("I") ? 1024 : 1000;
    return (long) (Double.parseDouble(m.group(1)) * Math.pow(base, power));
  }
}
