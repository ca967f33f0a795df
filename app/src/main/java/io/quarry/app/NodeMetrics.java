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
import io.vertx.micrometer.MicrometerMetricsOptions;
import java.util.EnumSet;
import java.util.regex.Pattern;

/**
 * One process's metrics in one Prometheus registry: Vert.x's own (HTTP server and client, event bus, pools, JVM)
 * and Quarry's, which the verticles record on Micrometer's global registry, this registry among its members.
 * Labels stay few and bounded: never a user, a URL or SQL; an event-bus address keeps its family
 * ({@code chat.events.*}, not one series per user).
 */
final class NodeMetrics implements AutoCloseable {

  /** A segment of an address that names one thing among many: a number, or anything with a digit in it. */
  private static final Pattern ID = Pattern.compile(".*\\d.*");

  final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

  NodeMetrics() {
    registry.config().meterFilter(MeterFilter.replaceTagValues("address", NodeMetrics::family));
    registry.config().meterFilter(new MeterFilter() {
      // Vert.x's timers (HTTP response time, event-bus processing) as histograms, so that quantiles can be computed
      // across nodes, as Quarry's own are.
      @Override
      public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
        return id.getType() == Meter.Type.TIMER && id.getName().startsWith("vertx.")
            ? DistributionStatisticConfig.builder().percentilesHistogram(true).build().merge(config) : config;
      }
    });
    Metrics.globalRegistry.add(registry);
  }

  /** Vert.x's metrics, into this registry. */
  VertxBuilder into(VertxBuilder builder, VertxOptions options) {
    options.setMetricsOptions(new MicrometerMetricsOptions().setEnabled(true).setJvmMetricsEnabled(true)
        // Not REMOTE or LOCAL (every client's address), nor HTTP_PATH (every conversation's id).
        .setLabels(EnumSet.of(Label.HTTP_METHOD, Label.HTTP_CODE, Label.HTTP_ROUTE, Label.EB_ADDRESS, Label.EB_SIDE,
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
