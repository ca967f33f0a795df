package io.quarry.llm;

import static io.quarry.bus.Addresses.*;

import io.quarry.bus.Bus;
import io.quarry.bus.DatasetClient;
import io.quarry.bus.StorageClient;
import com.google.genai.types.GenerateContentResponse;
import com.google.genai.types.Part;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.json.JsonObject;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chat turns with Gemini: prompt, tool loop, streaming, limits, pruning, token accounting, stopping.
 * Without an API key it still deploys and says clearly that chat is unavailable.
 */
public class LlmVerticle extends VerticleBase {

  private static final Logger log = LoggerFactory.getLogger(LlmVerticle.class);
  static final String GOOGLE = "https://generativelanguage.googleapis.com";

  private GeminiClient gemini;

  @Override
  public Future<?> start() {
    JsonObject c = config();
    EventBus bus = vertx.eventBus();
    String apiKey = c.getString("apiKey", "");
    String model = c.getString("model", "gemini-2.5-flash");
    gemini = apiKey == null || apiKey.isBlank() ? null : new GeminiClient(vertx, new GeminiClient.Settings(
        c.getString("baseUrl", "").isBlank() ? GOOGLE : c.getString("baseUrl"), apiKey, model,
        c.getLong("responseTimeoutMs", 60_000L), c.getInteger("retries", 2), c.getLong("retryBackoffMs", 1_000L)));
    LlmSettings settings = new LlmSettings(model, c.getInteger("maxToolCalls", 5), c.getInteger("maxSqlRetries", 3),
        c.getInteger("maxMessages", 50), c.getLong("contextBudgetTokens", 800_000L), c.getInteger("contextRetryDrop", 10),
        c.getLong("answerCheckpointMs", 1_000L));
    StorageClient storage = new StorageClient(bus);
    TokenBudget budget = new TokenBudget(storage, c.getLong("tokenLimit", 5_000_000L),
        c.getLong("turnReserveTokens", 4_000L), c.getInteger("maxTurnsPerUser", 3), Clock.systemUTC());
    Turns turns = new Turns(vertx, gemini, storage, new DatasetClient(bus, c.getLong("queryTimeoutMs", 60_000L)),
        settings, budget);
    JsonObject status = new JsonObject().put("available", gemini != null).put("model", model)
        .put("reason", gemini != null ? null : "Chat needs GEMINI_API_KEY in the server's environment");
    if (gemini == null) {
      log.warn("GEMINI_API_KEY is not set: chat is unavailable; datasets and SQL still work");
    }
    return vertx.executeBlocking(LlmVerticle::warmUp).compose(v -> Future.all(
        Bus.serve(bus, LLM_TURN_START, turns::start).completion(),
        Bus.serve(bus, LLM_TURN_STOP, turns::stop).completion(),
        Bus.serve(bus, LLM_USAGE_GET, turns::usage).completion(),
        Bus.serve(bus, LLM_STATUS, body -> Future.succeededFuture(status)).completion()));
  }

  /**
   * The SDK's Jackson (de)serialisers take ~200 ms to build on first use; built here, on a worker thread,
   * that cost never stalls the event loop in the middle of somebody's first answer.
   */
  private static Void warmUp() {
    GenerateContentResponse.fromJson("{\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\"\"},"
        + "{\"functionCall\":{\"name\":\"f\",\"args\":{}},\"thoughtSignature\":\"AA==\"}]},\"finishReason\":\"STOP\"}],"
        + "\"usageMetadata\":{\"promptTokenCount\":1,\"candidatesTokenCount\":1}}").candidates().orElseThrow()
        .forEach(c -> c.content().orElseThrow().parts().orElseThrow().forEach(Part::toJson));
    Tools.JSON.size(); // builds the tool declarations' JSON, also through the SDK's Jackson
    return null;
  }

  @Override
  public Future<?> stop() {
    return gemini == null ? Future.succeededFuture() : gemini.close();
  }
}
