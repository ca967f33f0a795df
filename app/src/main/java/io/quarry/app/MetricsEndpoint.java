package io.quarry.app;

import io.quarry.bus.Bus;
import io.quarry.bus.WorkerOps;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The management listener ({@code metrics.host}, {@code metrics.port}; loopback by default, none with port 0):
 * {@code GET /metrics} answers this process's metrics and its worker processes', each labelled with its
 * {@code worker}, in Prometheus's text format. Apart from the HTTP API, so that it can stay on a private interface.
 */
final class MetricsEndpoint extends VerticleBase {

  private static final Logger log = LoggerFactory.getLogger(MetricsEndpoint.class);
  /** Prometheus's text exposition format. */
  static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";
  /** How long a scrape waits for the worker processes: a scrape must answer within Prometheus's own timeout. */
  static final long WORKERS_WAIT_MS = 3_000;
  /** How a node that cannot listen for scrapes says so, followed by the address and why. */
  static final String CANNOT_SERVE = "Cannot serve metrics on ";

  private final NodeMetrics metrics;
  private final NodeSettings settings;
  private HttpServer server;
  private Bus bus;

  MetricsEndpoint(NodeMetrics metrics, NodeSettings settings) {
    this.metrics = metrics;
    this.settings = settings;
  }

  @Override
  public Future<?> start() {
    bus = new Bus(vertx);
    String host = settings.metricsHost();
    int port = settings.metricsPort();
    server = vertx.createHttpServer().requestHandler(this::handle);
    return server.listen(port, host)
        .recover(e -> Future.failedFuture(new IllegalStateException(CANNOT_SERVE + host + ":" + port
            + " (metrics.port; 0 for none): " + e.getMessage(), e)))
        .onSuccess(s -> log.info("Metrics at http://{}:{}/metrics", host, s.actualPort()));
  }

  private void handle(HttpServerRequest request) {
    if (!"/metrics".equals(request.path())) {
      request.response().setStatusCode(404).end();
    } else if (request.method() != HttpMethod.GET) {
      request.response().setStatusCode(405).putHeader("Allow", "GET").end();
    } else {
      // Formatting every meter is work for a worker thread, not for the event loop.
      vertx.executeBlocking(metrics::scrape, false)
          .compose(own -> workers().map(theirs -> PrometheusText.merge(own, theirs)))
          .onSuccess(text -> request.response().putHeader("Content-Type", CONTENT_TYPE).end(text))
          .onFailure(e -> {
            log.warn("Metrics could not be gathered: {}", e.getMessage());
            request.response().setStatusCode(500).end();
          });
    }
  }

  /** Each worker process's exposition by its name; none on a node without worker processes. */
  private Future<Map<String, String>> workers() {
    return WorkerOps.LOCAL_METRICS.call(bus, null, WORKERS_WAIT_MS)
        .map(workers -> {
          Map<String, String> byName = new LinkedHashMap<>();
          workers.forEach(w -> byName.put(w.name(), w.text()));
          return byName;
        })
        .otherwise(Map.of());
  }

  /** The port actually bound. */
  int port() {
    return server.actualPort();
  }
}
