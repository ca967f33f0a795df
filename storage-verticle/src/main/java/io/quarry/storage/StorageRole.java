package io.quarry.storage;

import io.vertx.core.Future;
import io.vertx.core.Vertx;

/** The storage role, as a node deploys it: what it needs, from its settings. */
public final class StorageRole {

  private StorageRole() {
  }

  /**
   * Blocking: unpacks and loads SQLite's native library, which opening the database would do, so that a node can do it
   * while it joins its cluster, and deletes the copy it loaded ({@link SqliteLibrary}). Its failure is left for the open
   * to report.
   */
  public static void preload() {
    SqliteLibrary.loadAndForget();
  }

  /** Completes with the deployment's id once the database is open and every storage address is served. */
  public static Future<String> deploy(Vertx vertx, StorageSettings settings) {
    return vertx.deployVerticle(new StorageVerticle(settings));
  }
}
