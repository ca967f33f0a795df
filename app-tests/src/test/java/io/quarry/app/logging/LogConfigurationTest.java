package io.quarry.app.logging;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator.ExecutionStatus;
import io.quarry.bus.LogContext;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

/**
 * The jar's logging, built in code ({@link LogConfiguration}), on a logger context of the test's own: what a line
 * looks like in either format, which lines the level lets through, and which loggers never go below INFO.
 */
class LogConfigurationTest {

  private static final String SEALED = "qs1." + "A".repeat(40);

  /** Runs {@code logging} on a context of its own that carries {@code fields}, as a request's does. */
  private static void about(Map<String, String> fields, Runnable logging) {
    Vertx vertx = Vertx.vertx();
    try {
      Promise<Void> done = Promise.promise();
      ((ContextInternal) vertx.getOrCreateContext()).duplicate().runOnContext(v -> {
        fields.forEach(LogContext::put);
        logging.run();
        done.complete();
      });
      done.future().await();
    } finally {
      vertx.close().await();
    }
  }

  /** The lines written to standard output while {@code logging} runs, on a context configured by {@code env}. */
  private static List<String> lines(Map<String, String> env, Consumer<LoggerContext> logging) {
    LoggerContext context = new LoggerContext();
    // What logback's SLF4J binding gives the JVM's own context: LogFields puts a line's fields in SLF4J's MDC.
    context.setMDCAdapter(MDC.getMDCAdapter());
    PrintStream out = System.out;
    ByteArrayOutputStream written = new ByteArrayOutputStream();
    System.setOut(new PrintStream(written, true, StandardCharsets.UTF_8));
    try {
      LogConfiguration.apply(context, env);
      logging.accept(context);
    } finally {
      context.stop();
      System.setOut(out);
    }
    // The JVM's own logging (the tests' configuration, Vert.x's lines) writes there too meanwhile: those lines are not
    // the context's.
    return written.toString(StandardCharsets.UTF_8).lines().filter(l -> l.contains(" io.quarry.Example - ")
        || l.startsWith("{")).toList();
  }

  @Test
  @DisplayName("text by default: time, level, thread, logger and message, a sealed link's secret shown [redacted], then"
      + " what the line is about; INFO and above")
  void text() {
    List<String> lines = lines(Map.of(), context -> {
      Logger log = context.getLogger("io.quarry.Example");
      log.debug("not at INFO");
      about(Map.of("request_id", "r-1", "conversation_id", "c-2"),
          () -> log.info("added url=https://example.com/f.parquet?sig=" + SEALED));
      log.warn("about nothing");
    });
    assertThat(lines).hasSize(2);
    assertThat(lines.get(0)).matches("\\d\\d:\\d\\d:\\d\\d\\.\\d{3} INFO  \\[[^]]+] io\\.quarry\\.Example - added"
        + " url=https://example\\.com/f\\.parquet\\?sig=\\[redacted] \\[r-1 c-2 ]");
    assertThat(lines.get(1)).endsWith("WARN  [" + Thread.currentThread().getName() + "] io.quarry.Example - about nothing");
  }

  @Test
  @DisplayName("json: one object a line, with what the line is about and neither level_value nor @version; the root at"
      + " QUARRY_LOG_LEVEL, HTTP clients' loggers never below INFO")
  void json() {
    List<String> lines = lines(Map.of("QUARRY_LOG_FORMAT", "json", "QUARRY_LOG_LEVEL", "TRACE"), context -> {
      about(Map.of("conversation_id", "c-2"), () -> context.getLogger("io.quarry.Example").trace("deep"));
      context.getLogger("org.apache.http.headers").debug("Authorization: Bearer k");
      context.getLogger("okhttp3.OkHttpClient").debug("x-goog-api-key: k");
      context.getLogger("com.hazelcast.Example").info("chatter");
    });
    assertThat(lines).hasSize(1);
    JsonObject line = new JsonObject(lines.get(0));
    assertThat(line.getString("message")).isEqualTo("deep");
    assertThat(line.getString("level")).isEqualTo("TRACE");
    assertThat(line.getString("conversation_id")).isEqualTo("c-2");
    assertThat(line.fieldNames()).doesNotContain("level_value", "@version");
  }

  @Test
  @DisplayName("a configuration given to logback the usual way is used instead: here the tests' logback-test.xml")
  void givenElsewhere() {
    LogConfiguration configuration = new LogConfiguration();
    LoggerContext context = new LoggerContext();
    configuration.setContext(context);
    assertThat(configuration.configure(context)).isEqualTo(ExecutionStatus.INVOKE_NEXT_IF_ANY);
    assertThat(context.getTurboFilterList()).isEmpty();
  }
}
