package io.quarry.dataset;

import io.vertx.core.Future;
import io.vertx.core.Vertx;

/** The dataset role, as a node deploys it: what it needs, from its settings. */
public final class DatasetRole {

  private DatasetRole() {
  }

  /** Completes with the deployment's id once every dataset address is served. */
  public static Future<String> deploy(Vertx vertx, DatasetSettings settings) {
    return vertx.deployVerticle(new DatasetVerticle(settings));
  }
}
