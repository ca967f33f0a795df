package io.quarry.chat;

import io.quarry.bus.Addresses;
import io.quarry.bus.Bus;
import io.quarry.bus.Deliveries;
import io.quarry.bus.LlmClient;
import io.quarry.bus.LlmStatus;
import io.quarry.bus.NodeInfo;
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

/** {@code GET /api/health}, {@code GET /api/health/nodes} and {@code GET /api/me}. */
final class HealthApi {

  /** The worker processes' state comes from this very process: an answer slower than this means trouble. */
  private static final long LOCAL_STATUS_TIMEOUT_MS = 2_000;

  private final NodeInfo node;
  private final String authMode;
  private final LlmClient llm;

  HealthApi(NodeInfo node, String authMode, LlmClient llm) {
    this.node = node;
    this.authMode = authMode;
    this.llm = llm;
  }

  /**
   * Whether this node is up, what it runs and which roles the cluster has: nothing that names a node or a
   * process, since anyone who can reach the port may ask.
   */
  void health(RoutingContext ctx) {
    members(ctx).onSuccess(list -> Replies.json(ctx, 200, summary(list)
        .put("cluster_members", new JsonArray(list.stream()
            .map(n -> new JsonObject().put("roles", new JsonArray(n.roles()))).toList()))));
  }

  /** For a signed-in user: every live node with its id, and this node's worker processes. */
  void nodes(RoutingContext ctx) {
    Future<JsonObject> localWorkers = Bus.request(ctx.vertx().eventBus(), Addresses.WORKER_LOCAL_STATUS,
        new JsonObject(), Deliveries.within(LOCAL_STATUS_TIMEOUT_MS)).otherwise((JsonObject) null);
    Future.all(localWorkers, members(ctx)).onComplete(both -> Replies.json(ctx, 200,
        summary(both.result().resultAt(1))
            .put("local_workers", localWorkers.result())
            .put("cluster_members", new JsonArray(both.result().<List<NodeInfo>>resultAt(1).stream()
                .map(NodeInfo::toJson).toList()))));
  }

  private JsonObject summary(List<NodeInfo> members) {
    Set<String> present = new TreeSet<>();
    members.forEach(n -> present.addAll(n.roles()));
    return new JsonObject()
        .put("status", "ok")
        .put("version", node.version())
        .put("roles", new JsonArray(node.roles()))
        .put("roles_present", new JsonArray(new ArrayList<>(present)));
  }

  /** Every live node of the cluster by id, or this one alone when not clustered. */
  private Future<List<NodeInfo>> members(RoutingContext ctx) {
    return ctx.vertx().sharedData().<String, JsonObject>getAsyncMap(Addresses.NODES_MAP)
        .compose(AsyncMap::values)
        .otherwise(List.of())
        .map(values -> values.isEmpty() ? List.of(node)
            : values.stream().map(NodeInfo::fromJson).sorted(Comparator.comparing(NodeInfo::id)).toList());
  }

  /** The user, and whether chat can run here (the UI says plainly when it cannot). */
  void me(RoutingContext ctx) {
    JsonObject me = Auth.user(ctx).toJson().put("auth_mode", authMode);
    llm.status()
        .otherwise(LlmStatus.NO_SERVICE)
        .onSuccess(status -> Replies.json(ctx, 200, me.put("chat_available", status.available())
            .put("chat_unavailable_reason", status.reason())
            .put("model", status.model())));
  }
}
