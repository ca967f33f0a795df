package io.quarry.app;

import io.quarry.chat.ChatVerticle;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

/** A started node: its Vert.x instance, its effective configuration, and its HTTP edge when it has one. */
public record Node(Vertx vertx, JsonObject config, ChatVerticle web) {

  /** The bound HTTP port, or -1 on a node without the web role. */
  public int httpPort() {
    return web == null ? -1 : web.port();
  }

  public Future<Void> stop() {
    return vertx.close();
  }
}
