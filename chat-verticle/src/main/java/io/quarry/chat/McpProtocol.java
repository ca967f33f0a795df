package io.quarry.chat;

import io.quarry.bus.NodeInfo;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * The MCP methods Quarry answers, whatever carries them: the lifecycle ({@code initialize}, {@code ping}), tools and
 * resources. Stateless: nothing is remembered between requests, so any web node answers any of them.
 */
final class McpProtocol {

  /** Newest first: the versions of the protocol the official SDKs speak that this server speaks too. */
  static final List<String> VERSIONS = List.of("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05");
  static final String INSTRUCTIONS = "Quarry answers questions about Parquet files with SQL (DuckDB). Make or pick a"
      + " conversation, add_dataset a file's URL to it (it becomes table1, table2, ...), then describe_dataset and"
      + " run_sql, or ask a question in plain language. Results are resources: quarry://results/{id}/rows.csv.";

  private final McpTools tools;
  private final McpResources resources;
  private final NodeInfo node;

  McpProtocol(McpTools tools, McpResources resources, NodeInfo node) {
    this.tools = tools;
    this.resources = resources;
    this.node = node;
  }

  /** The result of the request's method; a {@link JsonRpc.Failure} when it is the protocol's error. */
  Future<JsonObject> answer(McpCall call, String method, JsonObject params) {
    return switch (method) {
      case "initialize" -> Future.succeededFuture(initialize(params));
      case "ping" -> Future.succeededFuture(new JsonObject());
      case "tools/list" -> Future.succeededFuture(tools.list());
      case "tools/call" -> tools.call(call, text(params, "name"), arguments(params));
      case "resources/list" -> resources.list(call);
      case "resources/templates/list" -> Future.succeededFuture(resources.templates());
      case "resources/read" -> resources.read(call, text(params, "uri"));
      default -> throw new JsonRpc.Failure(JsonRpc.METHOD_NOT_FOUND, "Method not found: " + method);
    };
  }

  /** The client's version when this server speaks it, else the newest this server speaks (the client decides). */
  private JsonObject initialize(JsonObject params) {
    String asked = params.getValue("protocolVersion") instanceof String s ? s : null;
    return new JsonObject()
        .put("protocolVersion", VERSIONS.contains(asked) ? asked : VERSIONS.get(0))
        .put("capabilities", new JsonObject()
            .put("tools", new JsonObject().put("listChanged", false))
            .put("resources", new JsonObject().put("subscribe", false).put("listChanged", false)))
        .put("serverInfo", new JsonObject().put("name", "quarry").put("title", "Quarry").put("version", node.version()))
        .put("instructions", INSTRUCTIONS);
  }

  private static String text(JsonObject params, String key) {
    if (!(params.getValue(key) instanceof String value)) {
      throw new JsonRpc.Failure(JsonRpc.INVALID_PARAMS, "Params must have '" + key + "' as a string");
    }
    return value;
  }

  private static JsonObject arguments(JsonObject params) {
    Object value = params.getValue("arguments");
    if (value != null && !(value instanceof JsonObject)) {
      throw new JsonRpc.Failure(JsonRpc.INVALID_PARAMS, "Params' 'arguments' must be an object");
    }
    return value == null ? new JsonObject() : (JsonObject) value;
  }
}
