package io.quarry.app;

import io.vertx.core.Deployable;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One step of a node's start: a verticle of the node's own deployed with its configuration, a role deployed by its
 * module's entry, or a wait for one to be ready.
 */
record Deployment(String label, Function<Vertx, Future<?>> step) {

  static Deployment of(String label, Deployable verticle, JsonObject config) {
    return role(label, vertx -> vertx.deployVerticle(verticle, new DeploymentOptions().setConfig(config)));
  }

  /** {@code deploy} answers the deployment's id; a role's settings it reads and finds wrong fail this step. */
  static Deployment role(String label, Function<Vertx, Future<String>> deploy) {
    return new Deployment(label, vertx -> unparented(() -> deploy.apply(vertx)));
  }

  /**
   * Deployed from no Vert.x context: one deployed from another's (the previous step completes on it) becomes that
   * deployment's child, and goes when it is undeployed, so a node stopping role by role would lose its HTTP edge with
   * its llm role.
   */
  private static Future<String> unparented(Supplier<Future<String>> deploy) {
    Promise<String> deployed = Promise.promise();
    Thread caller = new Thread(() -> {
      try {
        deploy.get().onComplete(deployed);
      } catch (RuntimeException e) {
        deployed.fail(e);
      }
    }, "quarry-deploy");
    caller.setDaemon(true);
    caller.start();
    return deployed.future();
  }

  /** Not a failure of a role: its own message says what was not ready. */
  static Deployment waitFor(Function<Vertx, Future<?>> ready) {
    return new Deployment(null, ready);
  }

  /**
   * Runs the steps one after another; a failure names the role whose step failed. Answers each deployment's id by its
   * label, so that the node can stop its roles in an order of its own.
   */
  static Future<Map<String, String>> runAll(Vertx vertx, List<Deployment> steps) {
    Map<String, String> deployed = new LinkedHashMap<>();
    Future<?> chain = Future.succeededFuture();
    for (Deployment d : steps) {
      chain = chain.compose(v -> d.step().apply(vertx)
          .onSuccess(id -> {
            if (d.label() != null && id instanceof String deploymentId) {
              deployed.put(d.label(), deploymentId);
            }
          })
          .recover(e -> Future.failedFuture(d.label() == null ? e
              : new IllegalStateException(d.label() + " failed to start: " + e.getMessage(), e))));
    }
    return chain.map(v -> deployed);
  }
}
