package io.quarry.llm;

import io.quarry.bus.Addresses;
import io.quarry.bus.ChatMessage;
import io.quarry.bus.Dataset;
import io.quarry.bus.LlmClient;
import io.quarry.bus.NodeInfo;
import io.quarry.bus.NodeStarts;
import io.quarry.bus.QueryResult;
import io.quarry.bus.RowsJson;
import io.quarry.bus.StorageClient;
import io.quarry.bus.TokenUsage;
import io.quarry.testing.EventLog;
import io.quarry.testing.FakeDatasets;
import io.quarry.testing.FakeGemini;
import io.quarry.testing.FakeModel;
import io.quarry.testing.FakeOpenAI;
import io.quarry.testing.FakeStorage;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.shareddata.AsyncMap;
import java.util.List;
import java.util.UUID;
import java.util.function.UnaryOperator;

/**
 * The llm verticle deployed alone: it talks HTTP to a fake model server on loopback — Gemini's API, or OpenAI's Chat
 * Completions — (on a Vert.x of its own, as an outside service), storage and datasets are fakes bound to the contract's addresses,
 * and the user's event channel is read as a browser's socket would receive it. One conversation per harness.
 */
final class TurnHarness implements AutoCloseable {

  static final String USER = "user-1";

  private final Vertx outside = Vertx.vertx();
  final FakeModel<?> model;
  final FakeStorage storage;
  final FakeDatasets datasets;
  final LlmClient llm;
  /** Storage as the other services reach it, e.g. the dataset verticle removing a dataset. */
  final StorageClient storageClient;
  final EventLog events = new EventLog();
  final String conversation;
  /** What its llm verticles were deployed with, but their node. */
  final JsonObject config;

  /** {@code llmConfig}: settings of the {@code llm} section over the defaults, e.g. a shorter response timeout. */
  TurnHarness(Vertx vertx, JsonObject llmConfig) {
    this(vertx, llmConfig, ModelSettings.GEMINI);
  }

  /** {@code provider}: whose API the fake server speaks, {@code gemini} or {@code openai}. */
  TurnHarness(Vertx vertx, JsonObject llmConfig, String provider) {
    this(vertx, llmConfig, provider, new String[0]);
  }

  /** With a server of OpenAI's API that has a compatible server's quirks. */
  TurnHarness(Vertx vertx, JsonObject llmConfig, FakeOpenAI.Quirks quirks) {
    this(vertx, llmConfig, outside -> FakeOpenAI.start(outside, quirks), UnaryOperator.identity());
  }

  TurnHarness(Vertx vertx, JsonObject llmConfig, String provider, String... nodes) {
    this(vertx, llmConfig, UnaryOperator.identity(), provider, nodes);
  }

  /** Its llm verticles reach the map of running turns through {@code turnsMap}. */
  TurnHarness(Vertx vertx, JsonObject llmConfig, UnaryOperator<AsyncMap<String, String>> turnsMap, String provider,
      String... nodes) {
    this(vertx, llmConfig, outside -> ModelSettings.OPENAI.equals(provider) ? FakeOpenAI.start(outside)
        : FakeGemini.start(outside), turnsMap, nodes);
  }

  /**
   * With one llm verticle per node id, each as that node's (they share the Vert.x, its bus and its maps, as the
   * llm nodes of a cluster share theirs); with none, one verticle that belongs to no node.
   */
  private TurnHarness(Vertx vertx, JsonObject llmConfig, java.util.function.Function<Vertx, FakeModel<?>> fake,
      UnaryOperator<AsyncMap<String, String>> turnsMap, String... nodes) {
    model = fake.apply(outside);
    String provider = model.provider();
    boolean openAi = ModelSettings.OPENAI.equals(provider);
    storage = FakeStorage.start(vertx).await();
    datasets = FakeDatasets.start(vertx).await();
    vertx.eventBus().<JsonObject>consumer(Addresses.chatEvents(USER), msg -> events.add(msg.body()))
        .completion().await();
    config = (openAi ? new JsonObject().put("provider", provider).put("openaiApiKey", "test-key")
        .put("openaiBaseUrl", model.baseUrl()) : new JsonObject().put("apiKey", "test-key").put("baseUrl", model.baseUrl()))
        .put("retries", 0).mergeIn(llmConfig);
    if (nodes.length == 0) {
      deploy(vertx, config);
    }
    for (String node : nodes) {
      deploy(vertx, node, turnsMap);
    }
    // As a node says once its roles have started: the model's SDK warms up then.
    NodeStarts.publish(vertx.eventBus());
    llm = new LlmClient(vertx);
    storageClient = new StorageClient(vertx);
    conversation = storage.seedConversation(USER, Titles.DEFAULT).await().id();
  }

  /** Another llm verticle, of {@code node}. */
  String deploy(Vertx vertx, String node) {
    return deploy(vertx, node, UnaryOperator.identity());
  }

  /** Another llm verticle, of {@code node}, that reaches the map of running turns through {@code turnsMap}. */
  String deploy(Vertx vertx, String node,
      UnaryOperator<AsyncMap<String, String>> turnsMap) {
    return vertx.deployVerticle(new LlmVerticle(null, turnsMap), new DeploymentOptions().setConfig(config.copy()
        .put(NodeInfo.CONFIG_KEY, new NodeInfo(node, "dev", List.of("llm")).toJson()))).await();
  }

  private static String deploy(Vertx vertx, JsonObject config) {
    return vertx.deployVerticle(new LlmVerticle(), new DeploymentOptions().setConfig(config)).await();
  }

  /** Asks in the harness's conversation and returns the id the answer streams under. */
  String asked(String content) {
    return llm.start(USER, conversation, content).await().messageId();
  }

  /** A ready dataset of the conversation, as the pipeline leaves one. */
  Dataset dataset(String name, long rows, JsonArray schema) {
    return storage.seedDataset(conversation, name, "https://data.example.com/" + name + ".parquet", rows, schema)
        .await();
  }

  /** A schema column as the pipeline writes it. */
  static JsonObject column(String name, String type, String friendly) {
    return new JsonObject().put("name", name).put("type", type).put("friendly_type", friendly);
  }

  /**
   * {@code sql} answers with these columns ({@code name TYPE} each) and rows, stored as the dataset verticle
   * stores a result, so that render_chart finds it.
   */
  QueryResult answers(String sql, List<String> columns, JsonArray rows) {
    JsonArray described = new JsonArray();
    columns.forEach(c -> described.add(new JsonObject().put("name", c.split(" ")[0]).put("type", c.split(" ")[1])));
    QueryResult result = new QueryResult(UUID.randomUUID().toString(), conversation, sql, described,
        RowsJson.of(rows), rows.size(), false, 2, null, null);
    datasets.answer(sql, result).await();
    return storage.seedResult(result).await();
  }

  /** One row of values. */
  static JsonArray row(Object... values) {
    JsonArray row = new JsonArray();
    for (Object v : values) {
      row.add(v);
    }
    return new JsonArray().add(row);
  }

  List<ChatMessage> messages() {
    return storage.messages(conversation).await();
  }

  /** The conversation's last message: the answer of its last turn. */
  ChatMessage answer() {
    List<ChatMessage> all = messages();
    return all.get(all.size() - 1);
  }

  List<TokenUsage> usage() {
    return storage.usage().await();
  }

  long inputTokens() {
    return usage().stream().mapToLong(TokenUsage::inputTokens).sum();
  }

  FakeModel.Request request(int index) {
    return model.requests().get(index);
  }

  /** The fake of a Gemini-only test. */
  FakeGemini gemini() {
    return (FakeGemini) model;
  }

  /** The last function response of a request: what the model was told of its latest tool call. */
  static JsonObject lastResponse(FakeModel.Request request) {
    List<JsonObject> responses = request.functionResponses();
    return responses.get(responses.size() - 1).getJsonObject("response");
  }

  /** Who answers, as the user's messages name it: Gemini, or the OpenAI-compatible model by its name. */
  String speaker() {
    return speaksGemini() ? "Gemini" : modelName();
  }

  /** The configured model: each provider's default. */
  String modelName() {
    return speaksGemini() ? "gemini-2.5-flash" : "gpt-4o-mini";
  }

  /** Whether the fake speaks Gemini's API (else OpenAI's). */
  boolean speaksGemini() {
    return model instanceof FakeGemini;
  }

  /** The conversation a request carried, encoded as sent (Gemini's contents, or OpenAI's messages). */
  static String history(FakeModel.Request request) {
    JsonArray contents = request.body().getJsonArray("contents");
    return (contents != null ? contents : request.body().getJsonArray("messages")).encode();
  }

  /** The last content (Gemini) or message (OpenAI) a request carried, encoded as sent. */
  static String lastTurn(FakeModel.Request request) {
    JsonArray contents = request.body().getJsonArray("contents");
    JsonArray sent = contents != null ? contents : request.body().getJsonArray("messages");
    return sent.getJsonObject(sent.size() - 1).encode();
  }

  /** The texts of the conversation's messages a request carried, in order, the system prompt left out. */
  static List<String> texts(FakeModel.Request request) {
    List<String> texts = new java.util.ArrayList<>();
    JsonArray contents = request.body().getJsonArray("contents");
    if (contents != null) {
      contents.forEach(c -> texts.add(((JsonObject) c).getJsonArray("parts").getJsonObject(0).getString("text")));
    } else {
      request.body().getJsonArray("messages").stream().map(m -> (JsonObject) m)
          .filter(m -> !"system".equals(m.getString("role"))).forEach(m -> texts.add(m.getString("content")));
    }
    return texts;
  }

  /** The roles of the conversation's messages, as Quarry stores them: {@code user} and {@code model}. */
  static List<String> roles(FakeModel.Request request) {
    JsonArray contents = request.body().getJsonArray("contents");
    return contents != null ? contents.stream().map(c -> ((JsonObject) c).getString("role")).toList()
        : request.body().getJsonArray("messages").stream().map(m -> ((JsonObject) m).getString("role"))
            .filter(role -> !"system".equals(role)).map(role -> "assistant".equals(role) ? "model" : role).toList();
  }

  /** The names of the tools a request declared. */
  static List<String> toolNames(FakeModel.Request request) {
    JsonObject gemini = request.body().getJsonArray("tools").getJsonObject(0);
    return gemini.containsKey("functionDeclarations")
        ? gemini.getJsonArray("functionDeclarations").stream().map(f -> ((JsonObject) f).getString("name")).toList()
        : request.body().getJsonArray("tools").stream().map(t -> ((JsonObject) t).getJsonObject("function")
            .getString("name")).toList();
  }

  /** The function-calling mode a request set: {@code NONE} once tools are switched off ({@code none} for OpenAI's). */
  static String toolMode(FakeModel.Request request) {
    JsonObject gemini = request.body().getJsonObject("toolConfig");
    return gemini != null ? gemini.getJsonObject("functionCallingConfig").getString("mode")
        : request.body().getString("tool_choice").toUpperCase(java.util.Locale.ROOT);
  }

  @Override
  public void close() {
    outside.close().await();
  }
}
