package io.quarry.bus;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * A node as the launcher describes it to each of its roles (the {@value #CONFIG_KEY} entry of their config)
 * and announces it in {@link Addresses#NODES_MAP}. A role deployed without one (a test) is {@code local}.
 */
public record NodeInfo(String id, String version, List<String> roles) {

  public static final String CONFIG_KEY = "node";
  public static final NodeInfo LOCAL = new NodeInfo("local", "dev", List.of());

  public NodeInfo {
    roles = List.copyOf(roles);
  }

  public JsonObject toJson() {
    return new JsonObject().put("id", id).put("version", version).put("roles", new JsonArray(roles));
  }

  public static NodeInfo fromJson(JsonObject json) {
    return new NodeInfo(json.getString("id", LOCAL.id), json.getString("version", LOCAL.version),
        json.getJsonArray("roles", new JsonArray()).stream().map(String.class::cast).toList());
  }

  /** The node a role's config names, or {@link #LOCAL}. */
  public static NodeInfo of(JsonObject roleConfig) {
    JsonObject node = roleConfig.getJsonObject(CONFIG_KEY);
    return node == null ? LOCAL : fromJson(node);
  }

  /** {@code roleConfig} with this node in it. */
  public JsonObject into(JsonObject roleConfig) {
    return roleConfig.put(CONFIG_KEY, toJson());
  }

  /**
   * What a role of this node reads, as its settings record's {@code from} takes it: section {@code name} of the
   * node's configuration, this node, and the query timeout every wait derives from.
   */
  public JsonObject roleConfig(JsonObject nodeConfig, String name) {
    return into(nodeConfig.getJsonObject(name).copy())
        .put("query", nodeConfig.getJsonObject("query").copy());
  }
}
