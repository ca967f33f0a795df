package io.quarry.app.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import io.quarry.bus.LogContext;
import java.util.Map;
import org.slf4j.MDC;
import org.slf4j.Marker;

/**
 * Puts what a line is about ({@link LogContext}: the request, the conversation, the answer, the node) in the line's
 * MDC as it is logged, so that the text pattern ({@code %X}) and the JSON encoder show it. The MDC is the logging
 * thread's, so it is set afresh for every line: an event loop moves from one request to another between two lines.
 */
public final class LogFields extends TurboFilter {

  /** In a worker process: its name, so that its lines say whose they are once its node passes them on. */
  static final String WORKER = System.getProperty("quarry.worker.name");

  /** Finding the context may log (Vert.x's classes log as they load): that line is logged without looking again. */
  private static final ThreadLocal<Boolean> LOOKING = ThreadLocal.withInitial(() -> false);

  @Override
  public FilterReply decide(Marker marker, Logger logger, Level level, String format, Object[] params, Throwable t) {
    // Not logger.isEnabledFor(level): it asks the turbo filters again, this one among them.
    if ((level != null && !level.isGreaterOrEqual(logger.getEffectiveLevel())) || LOOKING.get()) {
      return FilterReply.NEUTRAL;
    }
    Map<String, String> fields;
    LOOKING.set(true);
    try {
      fields = LogContext.current();
    } finally {
      LOOKING.set(false);
    }
    for (String key : LogContext.KEYS) {
      String value = fields.get(key);
      if (value == null) {
        MDC.remove(key);
      } else {
        MDC.put(key, value);
      }
    }
    String node = LogContext.nodeId();
    if (node != null) {
      MDC.put(LogContext.NODE_ID, node);
    }
    if (WORKER != null) {
      MDC.put("worker", WORKER);
    }
    return FilterReply.NEUTRAL;
  }
}
