package io.quarry.app;

import io.vertx.core.json.JsonObject;

/**
 * What a node itself reads of its configuration, beside its roles' settings.
 *
 * @param eventLoops Vert.x's event loops ({@code vertx.eventLoops})
 * @param shutdownGraceMs how long answers being written have to finish when the node drains ({@code shutdown.graceMs})
 * @param metricsHost where the management listener listens ({@code metrics.host})
 * @param metricsPort its port ({@code metrics.port}); 0 for none, and then nothing is recorded
 */
record NodeSettings(int eventLoops, long shutdownGraceMs, String metricsHost, int metricsPort) {

  /** From the node's whole configuration, which holds every setting (its defaults are {@code conf/config.json}). */
  static NodeSettings from(JsonObject config) {
    JsonObject metrics = config.getJsonObject("metrics");
    return new NodeSettings(config.getJsonObject("vertx").getInteger("eventLoops"),
        config.getJsonObject("shutdown").getLong("graceMs"), metrics.getString("host"), metrics.getInteger("port"));
  }

  /** Whether this process records metrics: a worker process does when its node serves them. */
  boolean metricsEnabled() {
    return metricsPort > 0;
  }
}
