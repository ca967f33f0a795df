package io.quarry.llm;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;

/**
 * The llm role's meters (docs/metrics.md), on Micrometer's global registry: turns by how they ended, Gemini's time
 * to its first chunk, a turn's length, tool calls, tokens and budget refusals. Labels are closed sets: an outcome,
 * a tool's name, a kind of token, a reason.
 */
final class LlmMetrics {

  private static final MeterRegistry REGISTRY = Metrics.globalRegistry;
  private static final Timer FIRST_CHUNK = Timer.builder("quarry.gemini.first.token")
      .description("From a Gemini request sent to its first streamed chunk").publishPercentileHistogram()
      .maximumExpectedValue(Duration.ofMinutes(2)).register(REGISTRY);
  private static final Timer TURN = Timer.builder("quarry.turn.duration")
      .description("From a question taken to its answer's end, whatever the end").publishPercentileHistogram()
      .maximumExpectedValue(Duration.ofMinutes(10)).register(REGISTRY);

  private LlmMetrics() {
  }

  /** A turn ended: completed, cut_off, budget, declined, stopped, interrupted or error_&lt;kind&gt;. */
  static void turnEnded(String outcome, long startedNanos) {
    Counter.builder("quarry.turns").description("Turns by how they ended").tag("outcome", outcome)
        .register(REGISTRY).increment();
    TURN.record(Duration.ofNanos(System.nanoTime() - startedNanos));
  }

  static void firstChunk(long sentNanos) {
    FIRST_CHUNK.record(Duration.ofNanos(System.nanoTime() - sentNanos));
  }

  /** {@code outcome}: ok, error (the tool answered an error the model may correct) or refused (over a limit). */
  static void toolCall(String tool, String outcome) {
    Counter.builder("quarry.tool.calls").description("Tool calls by tool and outcome").tag("tool", Tools.known(tool))
        .tag("outcome", outcome).register(REGISTRY).increment();
  }

  static void tokens(long input, long output, long thinking) {
    tokens("input", input);
    tokens("output", output);
    tokens("thinking", thinking);
  }

  private static void tokens(String kind, long count) {
    if (count > 0) {
      Counter.builder("quarry.tokens").description("Gemini tokens by kind (thinking is billed as output too)")
          .tag("kind", kind).register(REGISTRY).increment(count);
    }
  }

  /** {@code reason}: daily_limit, held (running answers may use the rest) or too_many_turns. */
  static void budgetRejection(String reason) {
    Counter.builder("quarry.budget.rejections").description("Questions refused by the token budget")
        .tag("reason", reason).register(REGISTRY).increment();
  }
}
