package io.quarry.llm;

import io.quarry.bus.Defaults;
import io.quarry.bus.NodeInfo;
import io.quarry.bus.QueryTimeouts;
import io.vertx.core.json.JsonObject;
import java.util.Optional;

/**
 * The {@code llm} section, over the defaults of {@code conf/config.json} (the seed's limits); built by
 * {@link #of} (a node) or {@link #from} (a verticle deployed with its config) only.
 *
 * @param checkpointMs how often a streaming answer is saved, so that a server killed mid-answer keeps it
 * @param gemini how to reach Gemini; empty without an API key
 * @param node the node whose turns these are (they are registered by its id)
 */
public record LlmSettings(String model, int maxToolCalls, int maxSqlRetries, int maxMessages, long contextBudgetTokens,
    int contextRetryDrop, long checkpointMs, long tokenLimit, long turnReserveTokens, int maxTurnsPerUser,
    Optional<GeminiClient.Settings> gemini, QueryTimeouts timeouts, NodeInfo node) {

  static final String GOOGLE = "https://generativelanguage.googleapis.com";

  /** From a node's whole configuration. */
  public static LlmSettings of(JsonObject nodeConfig, NodeInfo node) {
    return from(node.roleConfig(nodeConfig, "llm"));
  }

  static LlmSettings from(JsonObject config) {
    JsonObject c = Defaults.section("llm", config);
    String model = c.getString("model");
    String apiKey = c.getString("apiKey", "");
    String baseUrl = c.getString("baseUrl");
    Optional<GeminiClient.Settings> gemini = apiKey == null || apiKey.isBlank() ? Optional.empty()
        : Optional.of(new GeminiClient.Settings(baseUrl.isBlank() ? GOOGLE : baseUrl, apiKey, model,
            c.getLong("responseTimeoutMs"), c.getInteger("retries"), c.getLong("retryBackoffMs")));
    return new LlmSettings(model, c.getInteger("maxToolCalls"), c.getInteger("maxSqlRetries"),
        c.getInteger("maxMessages"), c.getLong("contextBudgetTokens"), c.getInteger("contextRetryDrop"),
        c.getLong("answerCheckpointMs"), c.getLong("tokenLimit"), c.getLong("turnReserveTokens"),
        c.getInteger("maxTurnsPerUser"), gemini, QueryTimeouts.from(c), NodeInfo.of(c));
  }
}
