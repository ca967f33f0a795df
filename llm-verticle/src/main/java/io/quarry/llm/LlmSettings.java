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
 * @param model the model's id (the provider's own default unless configured)
 * @param reach how to reach the model; empty when the configured provider cannot be reached (no key, and for
 *     {@code openai} no base URL either)
 * @param node the node whose turns these are (they are registered by its id)
 */
public record LlmSettings(String model, int maxToolCalls, int maxSqlRetries, int maxMessages, long contextBudgetTokens,
    int contextRetryDrop, long checkpointMs, long tokenLimit, long turnReserveTokens, int maxTurnsPerUser,
    String provider, Optional<ModelSettings> reach, QueryTimeouts timeouts, NodeInfo node) {

  static final String GOOGLE = "https://generativelanguage.googleapis.com";

  /** From a node's whole configuration. */
  public static LlmSettings of(JsonObject nodeConfig, NodeInfo node) {
    return from(node.roleConfig(nodeConfig, "llm"));
  }

  static LlmSettings from(JsonObject config) {
    JsonObject c = Defaults.section("llm", config);
    String provider = c.getString("provider");
    if (!ModelSettings.GEMINI.equals(provider) && !ModelSettings.OPENAI.equals(provider)) {
      throw new IllegalArgumentException("llm.provider (QUARRY_LLM_PROVIDER) must be gemini or openai, not '"
          + provider + "'");
    }
    boolean gemini = ModelSettings.GEMINI.equals(provider);
    String model = c.getString(gemini ? "model" : "openaiModel");
    String apiKey = c.getString(gemini ? "apiKey" : "openaiApiKey", "");
    String baseUrl = c.getString(gemini ? "baseUrl" : "openaiBaseUrl", "");
    boolean reachable = apiKey != null && !apiKey.isBlank() || !gemini && baseUrl != null && !baseUrl.isBlank();
    Optional<ModelSettings> reach = !reachable ? Optional.empty() : Optional.of(new ModelSettings(provider,
        gemini && baseUrl.isBlank() ? GOOGLE : baseUrl, apiKey == null ? "" : apiKey, model,
        c.getLong("responseTimeoutMs"), c.getInteger("retries"), c.getLong("retryBackoffMs")));
    return new LlmSettings(model, c.getInteger("maxToolCalls"), c.getInteger("maxSqlRetries"),
        c.getInteger("maxMessages"), c.getLong("contextBudgetTokens"), c.getInteger("contextRetryDrop"),
        c.getLong("answerCheckpointMs"), c.getLong("tokenLimit"), c.getLong("turnReserveTokens"),
        c.getInteger("maxTurnsPerUser"), provider, reach, QueryTimeouts.from(c), NodeInfo.of(c));
  }
}
