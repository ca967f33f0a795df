package io.quarry.app;

import io.quarry.chat.ChatVerticle;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

/** A started node: its Vert.x instance, its effective configuration, its HTTP edge when it has one, its metrics. */
public record Node(Vertx vertx, JsonObject config, ChatVerticle web, NodeMetrics metrics) {

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
}
