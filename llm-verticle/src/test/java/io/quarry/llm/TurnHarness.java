package io.quarry.llm;

import io.quarry.bus.Addresses;
import io.quarry.bus.ChatMessage;
import io.quarry.bus.Dataset;
import io.quarry.bus.LlmClient;
import io.quarry.bus.NodeInfo;
import io.quarry.bus.QueryResult;
import io.quarry.bus.RowsJson;
import io.quarry.bus.StorageClient;
import io.quarry.bus.TokenUsage;
import io.quarry.testing.EventLog;
import io.quarry.testing.FakeDatasets;
import io.quarry.testing.FakeGemini;
import io.quarry.testing.FakeStorage;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.UUID;

/**
 * The llm verticle deployed alone: the real {@code google-genai} SDK talks HTTP to a fake Gemini on loopback (on
 * a Vert.x of its own, as an outside service), storage and datasets are fakes bound to the contract's addresses,
 * and the user's event channel is read as a browser's socket would receive it. One conversation per harness.
 */
final class TurnHarness implements AutoCloseable {

  static final String USER = "user-1";

  private final Vertx outside = Vertx.vertx();
  final FakeGemini gemini = FakeGemini.start(outside);
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
    this(vertx, llmConfig, new String[0]);
  }

  /**
   * With one llm verticle per node id, each as that node's (they share the Vert.x, its bus and its maps, as the
   * llm nodes of a cluster share theirs); with none, one verticle that belongs to no node.
   */
  TurnHarness(Vertx vertx, JsonObject llmConfig, String... nodes) {
    storage = FakeStorage.start(vertx).await();
    datasets = FakeDatasets.start(vertx).await();
    vertx.eventBus().<JsonObject>consumer(Addresses.chatEvents(USER), msg -> events.add(msg.body()))
        .completion().await();
    config = new JsonObject().put("apiKey", "test-key").put("baseUrl", gemini.baseUrl())
        .put("retries", 0).mergeIn(llmConfig);
    if (nodes.length == 0) {
      deploy(vertx, config);
    }
    for (String node : nodes) {
      deploy(vertx, node);
    }
    llm = new LlmClient(vertx);
    storageClient = new StorageClient(vertx);
    conversation = storage.seedConversation(USER, Titles.DEFAULT).await().id();
  }

  /** Another llm verticle, of {@code node}. */
  String deploy(Vertx vertx, String node) {
    return deploy(vertx, config.copy().put(NodeInfo.CONFIG_KEY, new NodeInfo(node, "dev", List.of("llm")).toJson()));
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

  FakeGemini.Request request(int index) {
    return gemini.requests().get(index);
  }

  /** The last function response of a request: what the model was told of its latest tool call. */
  static JsonObject lastResponse(FakeGemini.Request request) {
    List<JsonObject> responses = request.functionResponses();
    return responses.get(responses.size() - 1).getJsonObject("response");
  }

  /** The function-calling mode a request set: {@code NONE} once tools are switched off. */
  static String toolMode(FakeGemini.Request request) {
    return request.body().getJsonObject("toolConfig").getJsonObject("functionCallingConfig").getString("mode");
  }

  @Override
  public void close() {
    outside.close().await();
  }
}
