package io.quarry.app;

import io.quarry.bus.MembersLeaving;
import io.quarry.bus.Addresses;
import io.quarry.bus.NodeInfo;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.json.JsonObject;
import io.vertx.core.shareddata.AsyncMap;

/**
 * Announces this node (id, version, roles) in the cluster-wide map of live nodes. A node that leaves the
 * cluster is removed by those that see it go; its entry also expires unless renewed.
 */
public class NodeVerticle extends VerticleBase {

  static final long TTL_MS = 15_000;
  static final long RENEW_MS = 5_000;

  private AsyncMap<String, JsonObject> nodes;
  private long timer = -1;

  @Override
  public Future<?> start() {
    NodeInfo node = NodeInfo.of(config());
    return vertx.sharedData().<String, JsonObject>getAsyncMap(Addresses.NODES_MAP)
        .compose(map -> {
          nodes = map;
          timer = vertx.setPeriodic(RENEW_MS, id -> announce(node));
          return forgetWhenGone().compose(v -> announce(node));
        });
  }

  /** A member that leaves the cluster is out of the map at once, not only once its entry expires. */
  private Future<Void> forgetWhenGone() {
    return MembersLeaving.listen(vertx.eventBus(), nodes::remove).completion();
  }

  private Future<Void> announce(NodeInfo node) {
    return nodes.put(node.id(), node.toJson(), TTL_MS);
  }

  /** Asks for the entry's removal without waiting: while Vert.x closes it may never answer, and it expires anyway. */
  @Override
  public Future<?> stop() {
    vertx.cancelTimer(timer);
    if (nodes != null) {
      nodes.remove(NodeInfo.of(config()).id());
    }
    return Future.succeededFuture();
  }
}
