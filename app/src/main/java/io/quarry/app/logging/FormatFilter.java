package io.quarry.app.logging;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.filter.Filter;
import ch.qos.logback.core.spi.FilterReply;

/**
 * Lets an appender write only when it is the format asked for ({@code QUARRY_LOG_FORMAT}, text by default). Both
 * appenders stay referenced: logback warns about one that is not, and then prints its whole configuration status.
 */
public final class FormatFilter extends Filter<ILoggingEvent> {

  static final String CHOSEN = System.getenv().getOrDefault("QUARRY_LOG_FORMAT", "text");

  private String format;

  public void setFormat(String format) {
    this.format = format;
  }

  @Override
  public FilterReply decide(ILoggingEvent event) {
    return CHOSEN.equals(format) ? FilterReply.NEUTRAL : FilterReply.DENY;
  }
}
