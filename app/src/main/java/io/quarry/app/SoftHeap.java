package io.quarry.app;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.VMOption;
import java.lang.management.ManagementFactory;

/**
 * Under ZGC a node's heap grows toward its maximum before the collector works to shrink it: 3.1 GB of a 6 GB maximum
 * in the chat benchmark, against 0.99 GB when asked to keep near 768 MB ({@code SoftMaxHeapSize}), with the relay's
 * tail as short. So a node under ZGC that was given no soft size, and may grow past 768 MB, keeps near it (ZGC still
 * grows past it under pressure, up to the maximum). The node sets it once running, knowing its maximum heap: a JVM
 * started with a soft size above its maximum heap refuses to start, so no one command line fits every host.
 */
final class SoftHeap {

  static final long SOFT_BYTES = 768L << 20;

  private SoftHeap() {
  }

  /** The soft size this set, in bytes, or -1 (see {@link #applies}). */
  static long bound() {
    HotSpotDiagnosticMXBean hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
    if (!applies("true".equals(hotspot.getVMOption("UseZGC").getValue()),
        hotspot.getVMOption("SoftMaxHeapSize").getOrigin(), Runtime.getRuntime().maxMemory())) {
      return -1;
    }
    hotspot.setVMOption("SoftMaxHeapSize", String.valueOf(SOFT_BYTES));
    return Long.parseLong(hotspot.getVMOption("SoftMaxHeapSize").getValue());
  }

  /**
   * Under ZGC, with no soft size given (the JVM's own choice, the maximum heap, reads as ergonomic; any other origin is
   * someone's: the command line, {@code JAVA_TOOL_OPTIONS}, a flags file), and a maximum heap above the soft size.
   */
  static boolean applies(boolean zgc, VMOption.Origin soft, long maxHeapBytes) {
    boolean given = soft != VMOption.Origin.DEFAULT && soft != VMOption.Origin.ERGONOMIC;
    return zgc && !given && maxHeapBytes > SOFT_BYTES;
  }
}
