package io.quarry.chat;

import io.quarry.bus.Addresses;
import io.quarry.bus.Bus;
import io.quarry.bus.Deliveries;
import io.quarry.bus.LlmClient;
import io.vertx.core.Future;
import io.vertx.core.shareddata.AsyncMap;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** {@code GET /api/health} and {@code GET /api/me}. */
final class HealthApi {

  /** The worker processes' state comes from this very process: an answer slower than this means trouble. */
  private static final long LOCAL_STATUS_TIMEOUT_MS = 2_000;

  private final JsonObject node;
  private final String authMode;
  private final LlmClient llm;

  /** {@code node}: {@code {version, roles}} as the launcher describes this node. */
  HealthApi(JsonObject node, String authMode, LlmClient llm) {
    this.node = node;
    this.authMode = authMode;
    this.llm = llm;
  }

  /**
   * This node's roles, its worker processes (when it runs some), and every live node of the cluster with
   * its roles (itself when not clustered).
   */
  void health(RoutingContext ctx) {
    JsonArray roles = node.getJsonArray("roles", new JsonArray());
    Future<JsonObject> localWorkers = Bus.request(ctx.vertx().eventBus(), Addresses.WORKER_LOCAL_STATUS,
        new JsonObject(), Deliveries.within(LOCAL_STATUS_TIMEOUT_MS)).otherwise((JsonObject) null);
    Future<List<JsonObject>> members = ctx.vertx().sharedData().<String, JsonObject>getAsyncMap(Addresses.NODES_MAP)
        .compose(AsyncMap::values)
        .otherwise(List.of());
    Future.all(localWorkers, members).onComplete(both -> {
      List<JsonObject> values = members.result();
      JsonArray list = new JsonArray();
      Set<String> present = new TreeSet<>();
      values.stream().sorted(Comparator.comparing(n -> n.getString("id", ""))).forEach(n -> {
        list.add(n);
        n.getJsonArray("roles", new JsonArray()).forEach(r -> present.add((String) r));
      });
      if (list.isEmpty()) {
        list.add(new JsonObject().put("id", node.getString("id", "local")).put("roles", roles));
        roles.forEach(r -> present.add((String) r));
      }
      Replies.json(ctx, 200, new JsonObject()
          .put("status", "ok")
          .put("version", node.getString("version", "dev"))
          .put("roles", roles)
          .put("roles_present", new JsonArray(new ArrayList<>(present)))
          .put("local_workers", localWorkers.result())
          .put("cluster_members", list));
    });
  }

  /** The user, and whether chat can run here (the UI says plainly when it cannot). */
  void me(RoutingContext ctx) {
    JsonObject me = Auth.user(ctx).toJson().put("auth_mode", authMode);
    llm.status()
        .otherwise(new JsonObject().put("available", false).put("reason", "No chat service is running"))
        .onSuccess(status -> Replies.json(ctx, 200, me.put("chat_available", status.getBoolean("available", false))
            .put("chat_unavailable_reason", status.getString("reason"))
            .put("model", status.getString("model"))));
  }
}
