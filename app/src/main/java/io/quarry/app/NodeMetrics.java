package io.quarry.app;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.VertxBuilder;
import io.vertx.core.VertxOptions;
import io.vertx.micrometer.Label;
import io.vertx.micrometer.MicrometerMetricsFactory;
import io.vertx.micrometer.MetricsDomain;
import io.vertx.micrometer.MicrometerMetricsOptions;
import java.util.EnumSet;
import java.util.regex.Pattern;

/**
 * One process's metrics in one Prometheus registry: Vert.x's own (HTTP server and client, event bus, pools, JVM)
 * and Quarry's, which the verticles record on Micrometer's global registry, this registry among its members.
 * Labels stay few and bounded: never a user, a URL or SQL; an event-bus address keeps its family
 * ({@code chat.events.*}, not one series per user). With {@code metrics.port} 0 nothing is recorded.
 */
final class NodeMetrics implements AutoCloseable {

  /** A segment of an address that names one thing among many: a number, or anything with a digit in it. */
  private static final Pattern ID = Pattern.compile(".*\\d.*");

  final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  /** Port 0: no metrics are recorded at all, Vert.x's or Quarry's (what the benchmark compares against). */
  private final boolean enabled;

  /** A worker process has its node's metrics settings. */
  NodeMetrics(NodeSettings settings) {
    enabled = settings.metricsEnabled();
    if (!enabled) {
      return;
    }
    registry.config().meterFilter(MeterFilter.replaceTagValues("address", NodeMetrics::family));
    registry.config().meterFilter(new MeterFilter() {
      // The HTTP server's response time as a histogram, so that its quantiles can be computed across nodes, as
      // Quarry's own timers' are. Not Vert.x's other timers: the event bus times every message, and the bench's
      // token relay paid for each histogram.
      @Override
      public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
        return "vertx.http.server.response.time".equals(id.getName())
            ? DistributionStatisticConfig.builder().percentilesHistogram(true).build().merge(config) : config;
      }
    });
    Metrics.globalRegistry.add(registry);
  }

  /** Vert.x's metrics, into this registry. */
  VertxBuilder into(VertxBuilder builder, VertxOptions options) {
    if (!enabled) {
      return builder.with(options);
    }
    options.setMetricsOptions(new MicrometerMetricsOptions().setEnabled(true).setJvmMetricsEnabled(true)
        // Raw TCP: the clustered event bus's frames between a node and its workers, already counted as messages.
        .addDisabledMetricsCategory(MetricsDomain.NET_SERVER).addDisabledMetricsCategory(MetricsDomain.NET_CLIENT)
        // Not REMOTE or LOCAL (every client's address), nor HTTP_PATH (every conversation's id), nor HTTP_ROUTE: a
        // request passes a dozen routes (checks, then its handler), each of which the route label must be told of.
        .setLabels(EnumSet.of(Label.HTTP_METHOD, Label.HTTP_CODE, Label.EB_ADDRESS, Label.EB_SIDE,
            Label.EB_FAILURE, Label.POOL_TYPE, Label.POOL_NAME, Label.CLIENT_NAME, Label.NAMESPACE)));
    return builder.with(options).withMetrics(new MicrometerMetricsFactory(registry));
  }

  /** {@code chat.events.5f0c…} → {@code chat.events.*}; {@code worker.local.3-ab12….query.run} → {@code worker.local.*.query.run}. */
  static String family(String address) {
    String[] parts = address.split("\\.");
    for (int i = 0; i < parts.length; i++) {
      if (ID.matcher(parts[i]).matches()) {
        parts[i] = "*";
      }
    }
    return String.join(".", parts);
  }

  String scrape() {
    return registry.scrape();
  }

  @Override
  public void close() {
    Metrics.globalRegistry.remove(registry);
    registry.close();
  }
}
