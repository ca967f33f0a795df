package io.quarry.chat;

import io.quarry.bus.ApiOps;
import io.quarry.bus.ApiOps.CreateConversation;
import io.quarry.bus.Bus;
import io.quarry.bus.DatasetOps.AddDataset;
import io.quarry.bus.Failure;
import io.quarry.bus.Fields;
import io.quarry.bus.QuarryException;
import io.quarry.bus.Scopes.ConversationRef;
import io.quarry.bus.Scopes.UserRef;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * MCP's tools: each does what the browser may do for the token's user, through Quarry's public operations, so the
 * same checks, limits, budgets and messages hold. A token whose scope is too narrow, arguments that are wrong, and
 * any refusal of Quarry's are the tool's error ({@code isError}), in Quarry's words, which an agent can act on.
 */
final class McpTools {

  private final McpToolList list;
  private final Bus bus;
  private final McpSql sql;
  private final McpAsk asks;
  private final ChatSettings.McpSettings limits;
  private final Map<String, BiFunction<McpCall, JsonObject, Future<JsonObject>>> handlers = Map.of(
      "list_conversations", this::listConversations,
      "create_conversation", this::createConversation,
      "add_dataset", this::addDataset,
      "list_datasets", this::listDatasets,
      "describe_dataset", this::describeDataset,
      "run_sql", this::runSql,
      "ask", this::ask);

  McpTools(Vertx vertx, McpToolList list, ChatSettings.McpSettings limits) {
    this.list = list;
    this.bus = new Bus(vertx);
    this.limits = limits;
    this.sql = new McpSql(bus, limits);
    this.asks = new McpAsk(vertx, bus);
  }

  JsonObject list() {
    return new JsonObject().put("tools", list.listed());
  }

  /** {@code tools/call}: a tool's result, its error included; an unknown tool is the protocol's error. */
  Future<JsonObject> call(McpCall call, String name, JsonObject arguments) {
    McpToolList.Tool tool = list.find(name);
    if (tool == null) {
      throw new JsonRpc.Failure(JsonRpc.INVALID_PARAMS, "Unknown tool '" + name + "': tools/list names them");
    }
    Future<JsonObject> answer;
    try {
      if (!call.scope.allows(tool.scope())) {
        throw new QuarryException(Failure.FORBIDDEN, call.scope.refusal(tool.scope()));
      }
      checkNames(tool, arguments);
      answer = handlers.get(name).apply(call, arguments);
    } catch (QuarryException e) {
      answer = Future.failedFuture(e);
    }
    return answer.map(McpTools::succeeded).recover(e -> Future.succeededFuture(failed(e)));
  }

  private Future<JsonObject> listConversations(McpCall call, JsonObject args) {
    return ApiOps.CONVERSATION_LIST.call(bus, new UserRef(call.userId())).map(all -> new JsonObject()
        .put("conversations", new JsonArray(all.stream().map(McpShapes::conversation).toList())));
  }

  private Future<JsonObject> createConversation(McpCall call, JsonObject args) {
    return ApiOps.CONVERSATION_CREATE.call(bus, new CreateConversation(call.userId(), null,
        Fields.optional(args, "title"))).map(McpShapes::conversation);
  }

  private Future<JsonObject> addDataset(McpCall call, JsonObject args) {
    return ApiOps.DATASET_ADD.call(bus, new AddDataset(call.userId(), conversation(args), Fields.text(args, "url")))
        .map(McpShapes::dataset);
  }

  private Future<JsonObject> listDatasets(McpCall call, JsonObject args) {
    return ApiOps.DATASET_LIST.call(bus, new ConversationRef(call.userId(), conversation(args))).map(all ->
        new JsonObject().put("datasets", new JsonArray(all.stream().map(McpShapes::dataset).toList())));
  }

  private Future<JsonObject> describeDataset(McpCall call, JsonObject args) {
    String wanted = Fields.text(args, "dataset");
    return ApiOps.DATASET_LIST.call(bus, new ConversationRef(call.userId(), conversation(args)))
        .map(all -> all.stream().filter(d -> wanted.equals(d.name()) || wanted.equals(d.id())).findFirst()
            .map(McpShapes::dataset)
            .orElseThrow(() -> new QuarryException(Failure.NOT_FOUND, "No dataset '" + wanted
                + "' in this conversation: list_datasets names its tables")));
  }

  private Future<JsonObject> runSql(McpCall call, JsonObject args) {
    return sql.run(call, conversation(args), Fields.text(args, "sql"), maxRows(args));
  }

  private Future<JsonObject> ask(McpCall call, JsonObject args) {
    return asks.ask(call, conversation(args), Fields.text(args, "question"));
  }

  private static String conversation(JsonObject args) {
    return Fields.text(args, "conversation_id");
  }

  private int maxRows(JsonObject args) {
    Object value = args.getValue("max_rows");
    if (value == null) {
      return limits.defaultRows();
    }
    if (!(value instanceof Number n) || n.doubleValue() != Math.rint(n.doubleValue()) || n.doubleValue() < 1
        || n.doubleValue() > limits.maxRows()) {
      throw QuarryException.badRequest(String.format(java.util.Locale.ROOT,
          "Field 'max_rows' must be a whole number from 1 to %,d", limits.maxRows()));
    }
    return n.intValue();
  }

  /** An argument the tool does not take is refused by name: an agent's typo must not pass for a default. */
  private static void checkNames(McpToolList.Tool tool, JsonObject arguments) {
    for (String name : arguments.fieldNames()) {
      if (!tool.arguments().contains(name)) {
        throw QuarryException.badRequest("Unknown argument '" + name + "': " + tool.name() + " takes "
            + String.join(", ", tool.arguments()));
      }
    }
  }

  private static JsonObject succeeded(JsonObject structured) {
    return new JsonObject().put("content", new JsonArray().add(text(structured.encode())))
        .put("structuredContent", structured).put("isError", false);
  }

  /** Quarry's message, and its details when it has some (a SQL error's, say); a bug's only in the log. */
  private static JsonObject failed(Throwable e) {
    HttpErrors.Said said = HttpErrors.said(e, "MCP tools/call");
    String text = said.details() == null ? said.message() : said.message() + ": " + said.details();
    return new JsonObject().put("content", new JsonArray().add(text(text))).put("isError", true);
  }

  private static JsonObject text(String text) {
    return new JsonObject().put("type", "text").put("text", text);
  }
}
