package io.quarry.chat;

import io.quarry.bus.TokenScope;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The tools as declared in {@code mcp/tools.json}: what {@code tools/list} shows (each schema whole, its shared parts
 * copied in, as a client reads one tool at a time) and the scope each needs.
 */
final class McpToolList {

  record Tool(String name, TokenScope scope, JsonObject listed) {
    /** The names its arguments may have. */
    java.util.Set<String> arguments() {
      return listed.getJsonObject("inputSchema").getJsonObject("properties").fieldNames();
    }

    JsonArray required() {
      return listed.getJsonObject("inputSchema").getJsonArray("required", new JsonArray());
    }
  }

  private final Map<String, Tool> tools = new LinkedHashMap<>();

  private McpToolList(JsonObject declared) {
    JsonObject defs = declared.getJsonObject("$defs");
    for (Object t : declared.getJsonArray("tools")) {
      JsonObject tool = ((JsonObject) t).copy();
      TokenScope scope = TokenScope.of((String) tool.remove("scope"));
      tool.put("inputSchema", resolved(tool.getJsonObject("inputSchema"), defs));
      tool.put("outputSchema", resolved(tool.getJsonObject("outputSchema"), defs));
      tools.put(tool.getString("name"), new Tool(tool.getString("name"), scope, tool));
    }
  }

  /** Reads the declaration from the classpath: blocking, so once, at start. */
  static McpToolList load() {
    try (InputStream in = McpToolList.class.getResourceAsStream("/mcp/tools.json")) {
      return new McpToolList(new JsonObject(Buffer.buffer(in.readAllBytes())));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  Tool find(String name) {
    return tools.get(name);
  }

  JsonArray listed() {
    return new JsonArray(tools.values().stream().map(t -> t.listed().copy()).toList());
  }

  /** {@code schema} with every {@code {"$ref": "#/$defs/x"}} replaced by a copy of x, itself so resolved. */
  private static Object inline(Object schema, JsonObject defs) {
    if (schema instanceof JsonObject o) {
      String ref = o.getString("$ref");
      if (ref != null) {
        JsonObject target = defs.getJsonObject(ref.substring("#/$defs/".length()));
        return inline((Object) target, defs);
      }
      JsonObject copy = new JsonObject();
      o.forEach(e -> copy.put(e.getKey(), inline(e.getValue(), defs)));
      return copy;
    }
    if (schema instanceof JsonArray a) {
      return new JsonArray(a.stream().map(v -> inline(v, defs)).toList());
    }
    return schema;
  }

  private static JsonObject resolved(JsonObject schema, JsonObject defs) {
    return (JsonObject) inline((Object) schema, defs);
  }
}
