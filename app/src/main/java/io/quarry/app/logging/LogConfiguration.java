package io.quarry.app.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.spi.ContextAwareBase;
import java.util.Map;
import net.logstash.logback.encoder.LogstashEncoder;

/**
 * Quarry's logging, built in code (logback finds it as a service): read from XML, the same configuration cost every
 * JVM's start about half a CPU-second, the node's and each of its worker processes'. A configuration given to logback
 * the usual way ({@code -Dlogback.configurationFile}, or a {@code logback-test.xml} or {@code logback.xml} on the class
 * path) is used instead.
 *
 * <p>{@code QUARRY_LOG_FORMAT}: {@code text} (the default), one readable line, or {@code json}, one JSON object a line
 * for a log pipeline. {@code QUARRY_LOG_LEVEL}: the root level, INFO by default.
 */
public final class LogConfiguration extends ContextAwareBase implements Configurator {

  /**
   * Each line says what it is about (request, conversation, answer: see {@link LogFields}). A signed dataset link's
   * secrets are sealed ({@code qs1.…}) in every line that names it (see io.quarry.bus.UrlSecrets); the text line shows
   * them as the pages do, [redacted].
   */
  static final String TEXT = "%d{HH:mm:ss.SSS} %-5level [%thread] %logger{36} - "
      + "%replace(%msg){'(?<=[=:])qs1\\.[A-Za-z0-9_-]{38,}', '[redacted]'}"
      + "%replace( [%X{request_id} %X{conversation_id} %X{message_id}]){' \\[\\s*\\]', ''}%n";

  /** Levels that hold whatever the root's is. */
  private static final Map<String, Level> FIXED = Map.ofEntries(
      Map.entry("io.netty", Level.WARN),
      Map.entry("com.hazelcast", Level.WARN),
      // Quarry keeps no data in CP structures; the warning that they are not enabled says nothing to an operator.
      Map.entry("com.hazelcast.cp.CPSubsystem", Level.ERROR),
      // A connection refused at a private cluster's door (io.quarry.app.MemberGate) is said there, once per thousand:
      // Hazelcast's own warning for each, with its stack, would let anyone who knocks fill the log.
      Map.entry("com.hazelcast.internal.server.tcp.TcpServerAcceptor", Level.ERROR),
      // Vert.x registers one gauge per address and handler; a second handler's registration is a harmless duplicate.
      Map.entry("io.micrometer.core.instrument.MeterRegistry", Level.ERROR),
      // What HTTP clients log of the requests they send names secrets (the Gemini key travels in a header): never
      // below INFO, whatever QUARRY_LOG_LEVEL asks.
      Map.entry("org.apache.http", Level.INFO),
      Map.entry("org.apache.hc", Level.INFO),
      Map.entry("okhttp3", Level.INFO),
      Map.entry("io.netty.handler.logging", Level.INFO));

  @Override
  public ExecutionStatus configure(LoggerContext context) {
    if (System.getProperty("logback.configurationFile") != null || onClassPath("logback-test.xml")
        || onClassPath("logback.xml")) {
      return ExecutionStatus.INVOKE_NEXT_IF_ANY;
    }
    apply(context, System.getenv());
    return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
  }

  private static boolean onClassPath(String resource) {
    ClassLoader loader = LogConfiguration.class.getClassLoader();
    return loader != null && loader.getResource(resource) != null;
  }

  /** Configures {@code context} as {@code env} (its QUARRY_LOG_FORMAT and QUARRY_LOG_LEVEL) asks. */
  static void apply(LoggerContext context, Map<String, String> env) {
    LogFields fields = new LogFields();
    fields.setContext(context);
    fields.start();
    context.addTurboFilter(fields);
    ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
    console.setContext(context);
    String format = env.getOrDefault("QUARRY_LOG_FORMAT", "text");
    console.setName(format);
    console.setEncoder(format.equals("json") ? json(context) : text(context));
    console.start();
    FIXED.forEach((name, level) -> context.getLogger(name).setLevel(level));
    ch.qos.logback.classic.Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    root.setLevel(Level.toLevel(env.get("QUARRY_LOG_LEVEL"), Level.INFO));
    root.addAppender(console);
  }

  private static Encoder<ILoggingEvent> text(LoggerContext context) {
    PatternLayoutEncoder encoder = new PatternLayoutEncoder();
    encoder.setContext(context);
    encoder.setPattern(TEXT);
    encoder.start();
    return encoder;
  }

  private static Encoder<ILoggingEvent> json(LoggerContext context) {
    LogstashEncoder encoder = new LogstashEncoder();
    encoder.setContext(context);
    encoder.setIncludeContext(false);
    encoder.getFieldNames().setLevelValue("[ignore]");
    encoder.getFieldNames().setVersion("[ignore]");
    encoder.start();
    return encoder;
  }
}
