package io.quarry.chat;

import io.quarry.bus.Addresses;
import io.quarry.bus.Bus;
import io.quarry.bus.Failure;
import io.quarry.bus.LlmClient;
import io.quarry.bus.LlmStatus;
import io.quarry.bus.LocalWorkerStatus;
import io.quarry.bus.NodeInfo;
import io.quarry.bus.StorageClient;
import io.quarry.bus.WorkerOps;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.shareddata.AsyncMap;
import io.vertx.ext.web.RoutingContext;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;

/** {@code GET /api/health} (and its {@code /live} and {@code /ready}), {@code GET /api/health/nodes} and {@code GET /api/me}. */
final class HealthApi {

  /** The worker processes' state comes from this very process: an answer slower than this means trouble. */
  private static final long LOCAL_STATUS_TIMEOUT_MS = 2_000;

  /** How long readiness waits for storage and for a worker: a probe must answer within its own timeout. */
  static final long READY_WAIT_MS = 2_000;

  private final Bus bus;
  private final NodeInfo node;
  private final String authMode;
  private final LlmClient llm;
  private final StorageClient storage;
  private final AtomicBoolean draining;
  /** Who writes the next questions after an answer, which the page asks the model for only when it is the model. */
  private final ChatSettings.FollowUpSource followUps;
  /** {@code share.audience}, which the page's share dialog offers within. */
  private final String shareAudience;

  HealthApi(Bus bus, NodeInfo node, String authMode, LlmClient llm, StorageClient storage, AtomicBoolean draining,
      ChatSettings.FollowUpSource followUps, String shareAudience) {
    this.followUps = followUps;
    this.shareAudience = shareAudience;
    this.bus = bus;
    this.node = node;
    this.authMode = authMode;
    this.llm = llm;
    this.storage = storage;
    this.draining = draining;
  }

  /** The process answers: no more (a load balancer's liveness probe restarts a node that stops answering). */
  void live(RoutingContext ctx) {
    Replies.json(ctx, 200, new JsonObject().put("status", "live"));
  }

  /**
   * Whether this node can serve now: its roles are deployed (the HTTP edge starts last, so an answer says they are),
   * storage answers, and a query worker is ready. 503 with the reasons otherwise, and while the node drains.
   */
  void ready(RoutingContext ctx) {
    if (draining.get()) {
      Replies.json(ctx, 503, new JsonObject().put("status", "draining")
          .put("reasons", new JsonArray().add("The node is stopping: it takes no new work")));
      return;
    }
    Future<String> storageCheck = storage.ping(READY_WAIT_MS).map((String) null)
        .otherwise(e -> "Storage does not answer: " + Failure.messageOf(e));
    Future<String> workerCheck = WorkerOps.PING.call(bus, null, READY_WAIT_MS).map((String) null)
        .otherwise(e -> "No query worker is ready: " + Failure.messageOf(e));
    Future.all(storageCheck, workerCheck).onComplete(both -> {
      JsonArray reasons = new JsonArray();
      if (storageCheck.result() != null) {
        reasons.add(storageCheck.result());
      }
      if (workerCheck.result() != null) {
        reasons.add(workerCheck.result());
      }
      Replies.json(ctx, reasons.isEmpty() ? 200 : 503, new JsonObject()
          .put("status", reasons.isEmpty() ? "ready" : "not_ready").put("reasons", reasons));
    });
  }

  /**
   * Whether this node is up, what it runs and which roles the cluster has: nothing that names a node or a
   * process, since anyone who can reach the port may ask.
   */
  void health(RoutingContext ctx) {
    Future<LlmStatus> chat = llm.status().otherwise(LlmStatus.NO_SERVICE);
    Future.all(members(ctx), chat).onSuccess(both -> Replies.json(ctx, 200, summary(both.resultAt(0))
        .put("cluster_members", new JsonArray(both.<List<NodeInfo>>resultAt(0).stream()
            .map(n -> new JsonObject().put("roles", new JsonArray(n.roles()))).toList()))
        .put("chat", chat.result().toJson())));
  }

  /** For a signed-in user: every live node with its id, and this node's worker processes. */
  void nodes(RoutingContext ctx) {
    Future<JsonObject> localWorkers = WorkerOps.LOCAL_STATUS.call(bus, null, LOCAL_STATUS_TIMEOUT_MS)
        .map(LocalWorkerStatus.Pool::toJson).otherwise((JsonObject) null);
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
    JsonObject me = Auth.user(ctx).toJson().put("auth_mode", authMode).put("follow_ups", followUps.label())
        .put("share_audience", shareAudience);
    llm.status()
        .otherwise(LlmStatus.NO_SERVICE)
        .onSuccess(status -> Replies.json(ctx, 200, me.put("chat_available", status.available())
            .put("chat_unavailable_reason", status.reason())
            .put("provider", status.provider()).put("model", status.model())));
  }
}
