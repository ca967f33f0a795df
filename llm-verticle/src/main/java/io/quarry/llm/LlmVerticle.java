package io.quarry.llm;

import static io.quarry.bus.LlmOps.*;

import com.google.genai.types.GenerateContentResponse;
import com.google.genai.types.Part;
import io.quarry.bus.Bus;
import io.quarry.bus.DatasetClient;
import io.quarry.bus.LlmStatus;
import io.quarry.bus.NodeStarts;
import io.quarry.bus.StorageClient;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.shareddata.AsyncMap;
import java.time.Clock;
import java.util.List;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chat turns with the configured model (Gemini, or any OpenAI-compatible one): prompt, tool loop, streaming, limits,
 * pruning, token accounting, stopping.
 * Without an API key it still deploys and says clearly that chat is unavailable.
 */
public class LlmVerticle extends VerticleBase {

  private static final Logger log = LoggerFactory.getLogger(LlmVerticle.class);

  /** Null when deployed with a JSON config instead (the module's tests). */
  private final LlmSettings given;
  /** How the cluster's map of running turns is reached: as it is, but in tests that slow it down. */
  private final UnaryOperator<AsyncMap<String, String>> turnsMap;
  private WarmedModel model;

  public LlmVerticle() {
    this(null);
  }

  LlmVerticle(LlmSettings settings) {
    this(settings, UnaryOperator.identity());
  }

  LlmVerticle(LlmSettings settings, UnaryOperator<AsyncMap<String, String>> turnsMap) {
    this.given = settings;
    this.turnsMap = turnsMap;
  }

  @Override
  public Future<?> start() {
    LlmSettings settings = given != null ? given : LlmSettings.from(config());
    model = settings.reach().map(reach -> new WarmedModel(ModelSettings.GEMINI.equals(reach.provider())
        ? new GeminiModel(vertx, reach) : new OpenAiModel(vertx, reach), () -> warmUp(settings.provider())))
        .orElse(null);
    if (model != null) {
      // Not while the node starts: once it has, and a model request made before the warm-up ends waits for it.
      NodeStarts.listen(vertx.eventBus(), model::warmUp);
    }
    StorageClient storage = new StorageClient(vertx);
    TokenBudget budget = new TokenBudget(storage, settings.tokenLimit(), settings.turnReserveTokens(),
        settings.maxTurnsPerUser(), Clock.systemUTC());
    DatasetClient datasets = new DatasetClient(vertx, settings.timeouts());
    TurnContext context = new TurnContext(vertx, model, storage, datasets, settings);
    String missing = ModelSettings.GEMINI.equals(settings.provider()) ? "GEMINI_API_KEY"
        : "OPENAI_API_KEY (or OPENAI_BASE_URL for a model server of your own)";
    LlmStatus status = new LlmStatus(model != null, settings.provider(), settings.model(), model != null ? null
        : "Chat needs " + missing + " in the server's environment (QUARRY_LLM_PROVIDER=" + settings.provider() + ")");
    if (model == null) {
      log.warn("{} is not set (QUARRY_LLM_PROVIDER={}): chat is unavailable; datasets and SQL still work", missing,
          settings.provider());
    }
    return TurnRegistry.open(vertx, settings.node().id(), turnsMap)
        .compose(registry -> {
          Orphans orphans = new Orphans(vertx, registry, storage, datasets);
          return serve(new Bus(vertx), new Turns(context, budget, registry, orphans), registry, status,
              new FollowUpWriter(context, budget))
              .compose(v -> orphans.watch());
        });
  }

  private Future<?> serve(Bus bus, Turns turns, TurnRegistry registry, LlmStatus status, FollowUpWriter followUps) {
    MessageConsumer<Object> starts = bus.serve(TURN_START, turns::start);
    MessageConsumer<Object> continues = bus.serve(TURN_CONTINUE, turns::resume);
    // Draining, it takes no new turn: its consumers go, so that other llm nodes get the cluster's questions.
    MessageConsumer<Object> drain = bus.serveLocal(DRAIN, request -> Future.all(starts.unregister(),
        continues.unregister()).compose(v -> turns.drain(request.graceMs())));
    return Future.all(List.of(
        starts.completion(), continues.completion(), drain.completion(),
        bus.serve(TURN_STOP, turns::stop).completion(),
        bus.serve(turnStopAt(registry.owner), turns::stopHere).completion(),
        bus.serve(turnHeldAt(registry.owner), turns::holds).completion(),
        bus.serve(USAGE_GET, turns::usage).completion(),
        bus.serve(TURN_FOLLOW_UPS, followUps::write).completion(),
        bus.serve(STATUS, none -> Future.succeededFuture(status)).completion()));
  }

  /**
   * The SDK's Jackson (de)serialisers take ~200 ms to build on first use (0.4 s in a JVM just started); built here, on
   * a worker thread, once the node has started ({@link WarmedModel}), that cost does not stall the event loop in the
   * middle of somebody's first answer. A node without a model to ask builds none.
   */
  private Future<?> warmUp(String provider) {
    return vertx.executeBlocking(() -> warmSdk(provider), false)
        .onFailure(e -> log.warn("Could not warm the model's SDK up: {}", e.toString()));
  }

  private static Void warmSdk(String provider) throws Exception {
    GenerateContentResponse.fromJson("{\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\"\"},"
        + "{\"functionCall\":{\"name\":\"f\",\"args\":{}},\"thoughtSignature\":\"AA==\"}]},\"finishReason\":\"STOP\"}],"
        + "\"usageMetadata\":{\"promptTokenCount\":1,\"candidatesTokenCount\":1}}").candidates().orElseThrow()
        .forEach(c -> c.content().orElseThrow().parts().orElseThrow().forEach(Part::toJson));
    Tools.OPENAI.size(); // builds the tool declarations' JSON, also through the SDK's Jackson
    if (!ModelSettings.OPENAI.equals(provider)) {
      return null; // OpenAI's SDK (and Kotlin's runtime under it) stays unloaded for a node that does not use it
    }
    OpenAiModel.read("{\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":"
        + "[{\"index\":0,\"delta\":{\"content\":\"\",\"tool_calls\":[{\"index\":0,\"id\":\"c\",\"type\":\"function\","
        + "\"function\":{\"name\":\"f\",\"arguments\":\"{}\"}}]},\"finish_reason\":\"stop\"}],\"usage\":"
        + "{\"prompt_tokens\":1,\"completion_tokens\":1,\"total_tokens\":2}}").choices();
    return null;
  }

  /** Whether the model's SDK has begun to warm up; false without a model. */
  boolean warmUpBegun() {
    return model != null && model.begun();
  }

  @Override
  public Future<?> stop() {
    return model == null ? Future.succeededFuture() : model.close();
  }
}
