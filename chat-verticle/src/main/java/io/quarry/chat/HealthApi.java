package io.quarry.chat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

/** {@code GET /api/health} and {@code GET /api/me}. */
final class HealthApi {

  private final JsonObject node;
  private final String authMode;

  /** {@code node}: {@code {version, roles}} as the launcher describes this node. */
  HealthApi(JsonObject node, String authMode) {
    this.node = node;
    this.authMode = authMode;
  }

  void health(RoutingContext ctx) {
    JsonArray roles = node.getJsonArray("roles", new JsonArray());
    Replies.json(ctx, 200, new JsonObject()
        .put("status", "ok")
        .put("version", node.getString("version", "dev"))
        .put("roles", roles)
        .put("cluster_members", new JsonArray().add(new JsonObject()
            .put("id", node.getString("id", "local")).put("roles", roles))));
  }

  void me(RoutingContext ctx) {
    Replies.json(ctx, 200, Auth.user(ctx).toJson().put("auth_mode", authMode));
  }
}
