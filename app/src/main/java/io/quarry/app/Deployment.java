package io.quarry.app;

import io.vertx.core.Deployable;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.function.Function;

/** One step of a node's start: a verticle deployed with its configuration, or a wait for one to be ready. */
record Deployment(String label, Function<Vertx, Future<?>> step) {

  static Deployment of(String label, Deployable verticle, JsonObject config) {
    return new Deployment(label, vertx -> vertx.deployVerticle(verticle, new DeploymentOptions().setConfig(config)));
  }

  /** Not a failure of a role: its own message says what was not ready. */
  static Deployment waitFor(Function<Vertx, Future<?>> ready) {
    return new Deployment(null, ready);
  }

  /** Runs the steps one after another; a failure names the role whose step failed. */
  static Future<Void> runAll(Vertx vertx, List<Deployment> steps) {
    Future<?> chain = Future.succeededFuture();
    for (Deployment d : steps) {
      chain = chain.compose(v -> d.step().apply(vertx).recover(e -> Future.failedFuture(d.label() == null ? e
          : new IllegalStateException(d.label() + " failed to start: " + e.getMessage(), e))));
    }
    return chain.mapEmpty();
  }
}
