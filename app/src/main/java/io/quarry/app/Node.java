package io.quarry.app;

import io.quarry.bus.Bus;
import io.quarry.bus.LlmOps;
import io.quarry.bus.NodeOps;
import io.quarry.chat.ChatRole;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A started node: its Vert.x instance, its effective configuration and what the node itself reads of it, its HTTP edge
 * when it has one, its metrics, and its deployments by role.
 */
public record Node(Vertx vertx, JsonObject config, NodeSettings settings, ChatRole web, NodeMetrics metrics,
    Map<String, String> deployed) {

  private static final Logger log = LoggerFactory.getLogger(Node.class);
  /** How much longer than its grace a drain waits for the llm role to say its turns have ended. */
  static final long DRAIN_MARGIN_MS = 10_000;

  /** The bound HTTP port, or -1 on a node without the web role. */
  public int httpPort() {
    return web == null ? -1 : web.port();
  }

  public Future<Void> stop() {
    return vertx.close().eventually(() -> {
      metrics.close();
      return Future.succeededFuture();
    });
  }

  /**
   * A graceful stop (SIGTERM): readiness answers 503 and new questions get 503 "Quarry is restarting, try again
   * shortly"; running answers have {@code shutdown.graceMs} to finish, then stop with what they wrote kept; then the
   * workers stop, the node leaves its cluster, HTTP closes and storage closes, in that order. {@link #stop} follows,
   * from a thread of the caller's: Vert.x closed from one of its own threads could not say it has closed.
   */
  public Future<Void> drain() {
    long grace = settings.shutdownGraceMs();
    Bus bus = new Bus(vertx);
    return NodeOps.DRAINING.call(bus, null).otherwiseEmpty()
        .onComplete(edge -> log.info("Draining: readiness now answers 503 and new questions are refused; answers being"
            + " written have {} s", grace / 1000))
        .compose(edge -> LlmOps.DRAIN.call(bus, new LlmOps.Drain(grace), grace + DRAIN_MARGIN_MS))
        .onSuccess(drained -> log.info("Answers ended ({} stopped at the end of the grace)", drained.interrupted()))
        .<Void>mapEmpty().otherwiseEmpty()
        .compose(v -> undeploy(Role.WORKER.label, "Workers stopped"))
        .compose(v -> leaveCluster())
        .compose(v -> undeploy(Role.WEB.label, "HTTP closed"))
        .compose(v -> undeploy(Role.STORAGE.label, "Storage closed"));
  }

  /**
   * What the cluster asks of this node ends: its llm and dataset roles go (the bus sends their requests to other
   * nodes) and it leaves the map of live nodes. Storage stays until last, for what is still being saved; Hazelcast
   * itself is left when Vert.x closes (leaving it first would close Vert.x under the steps still to come).
   */
  private Future<Void> leaveCluster() {
    return Future.join(Stream.of(Role.LLM.label, Role.DATASET.label, "node").map(this::undeploy).toList())
        .<Void>mapEmpty().otherwiseEmpty().onComplete(done -> log.info("Left the cluster"));
  }

  private Future<Void> undeploy(String role) {
    return undeploy(role, null);
  }

  private Future<Void> undeploy(String role, String done) {
    String id = deployed.get(role);
    if (id == null) {
      return Future.succeededFuture();
    }
    return vertx.undeploy(id).onSuccess(v -> {
      if (done != null) {
        log.info(done);
      }
    })
        .onFailure(e -> log.warn("{} did not stop cleanly: {}", role, e.getMessage())).otherwiseEmpty();
  }
}
