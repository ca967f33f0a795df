package io.quarry.llm;

import io.vertx.core.Future;
import io.vertx.core.Vertx;

/** The llm role, as a node deploys it: what it needs, from its settings. */
public final class LlmRole {

  private LlmRole() {
  }

  /** Completes with the deployment's id once turns are served (with or without an API key). */
  public static Future<String> deploy(Vertx vertx, LlmSettings settings) {
    return vertx.deployVerticle(new LlmVerticle(settings));
  }
}
