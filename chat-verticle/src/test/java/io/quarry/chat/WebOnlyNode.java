package io.quarry.chat;

import io.quarry.bus.Bus;
import io.quarry.bus.StorageOps;
import io.quarry.bus.User;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;

/** A chat verticle in local mode beside a storage that knows only the local user: for what the web edge serves alone. */
final class WebOnlyNode {

  private WebOnlyNode() {
  }

  /** Deploys it on {@code vertx}; a client of its port. */
  static WebClient start(Vertx vertx) {
    new Bus(vertx).serve(StorageOps.USER_LOCAL, none -> Future.succeededFuture(
        new User("local-user", null, "2026-01-01T00:00:00.000Z"))).completion().await();
    ChatVerticle chat = new ChatVerticle();
    vertx.deployVerticle(chat, new DeploymentOptions().setConfig(new JsonObject().put("port", 0)
        .put("node", new JsonObject().put("id", "n1").put("version", "9.9").put("roles", new JsonArray().add("web")))))
        .await();
    return WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(chat.port()));
  }
}
