package io.quarry.chat;

import io.vertx.core.Future;
import io.vertx.core.Vertx;

/**
 * The web role (the HTTP edge), as a node deploys it. An instance, unlike the other roles' entries: its node asks it
 * for the port it bound (port 0 picks one).
 */
public final class ChatRole {

  private ChatVerticle edge;

  /** Completes with the deployment's id once the server listens: listening means ready. */
  public Future<String> deploy(Vertx vertx, ChatSettings settings) {
    edge = new ChatVerticle(settings);
    return vertx.deployVerticle(edge);
  }

  /** The bound HTTP port. */
  public int port() {
    return edge.port();
  }
}
