package io.quarry.storage;

import io.vertx.core.Future;
import io.vertx.core.Vertx;

/** The storage role, as a node deploys it: what it needs, from its settings. */
public final class StorageRole {

  private StorageRole() {
  }

  /** Completes with the deployment's id once the database is open and every storage address is served. */
  public static Future<String> deploy(Vertx vertx, StorageSettings settings) {
    return vertx.deployVerticle(new StorageVerticle(settings));
  }
}
