package io.quarry.bus.net;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;

/**
 * The heap this JVM was given ({@code -Xmx}, or the JVM's own choice): what memory bounds are made from.
 * {@code Runtime.maxMemory()} leaves out one survivor space under the serial collector, which workers run (247.5 MB
 * of 256), so bounds made from it would come out a few percent under what was configured and documented. Read once,
 * when first asked: the management beans it loads take some 20 ms, which {@link OutboundHttp#preload} spends off the
 * event loops.
 */
public final class ConfiguredHeap {

  private static final long MAX_BYTES = read();

  private ConfiguredHeap() {
  }

  public static long maxBytes() {
    return MAX_BYTES;
  }

  private static long read() {
    try {
      return Long.parseLong(ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
          .getVMOption("MaxHeapSize").getValue());
    } catch (RuntimeException e) {
      return Runtime.getRuntime().maxMemory(); // a JVM without HotSpot's options
    }
  }
}
