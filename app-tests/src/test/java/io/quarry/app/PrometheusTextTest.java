package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class PrometheusTextTest {

  static final String NODE = """
      # HELP jvm_threads_live_threads The current number of live threads
      # TYPE jvm_threads_live_threads gauge
      jvm_threads_live_threads 40.0
      # HELP quarry_queries_seconds Queries
      # TYPE quarry_queries_seconds histogram
      quarry_queries_seconds_bucket{outcome="ok",le="0.1"} 3
      quarry_queries_seconds_count{outcome="ok"} 3
      """;
  static final String WORKER = """
      # HELP jvm_threads_live_threads The current number of live threads
      # TYPE jvm_threads_live_threads gauge
      jvm_threads_live_threads 21.0
      # HELP quarry_cache_requests_total Tables read
      # TYPE quarry_cache_requests_total counter
      quarry_cache_requests_total{result="hit"} 5.0
      empty_labels{} 1
      """;

  @Test
  @DisplayName("a node's and its workers' expositions merge into one: each family declared once, workers' samples labelled")
  void merge() {
    Map<String, String> workers = new LinkedHashMap<>();
    workers.put("worker-1", WORKER);
    workers.put("worker-2", WORKER);
    String merged = PrometheusText.merge(NODE, workers);
    assertThat(merged.lines().filter(l -> l.equals("# TYPE jvm_threads_live_threads gauge"))).hasSize(1);
    assertThat(merged).contains("""
        # TYPE jvm_threads_live_threads gauge
        jvm_threads_live_threads 40.0
        jvm_threads_live_threads{worker="worker-1"} 21.0
        jvm_threads_live_threads{worker="worker-2"} 21.0
        """);
    assertThat(merged).contains("quarry_queries_seconds_bucket{outcome=\"ok\",le=\"0.1\"} 3\n")
        .contains("quarry_cache_requests_total{worker=\"worker-2\",result=\"hit\"} 5.0\n")
        .contains("empty_labels{worker=\"worker-1\"} 1\n");
  }

  @Test
  @DisplayName("an event-bus address keeps its family, not the id of a user, a worker or a reply")
  void addressFamilies() {
    assertThat(NodeMetrics.family("chat.events.5f0c3a1e-2b4d-4f6a-8c9e-0a1b2c3d4e5f")).isEqualTo("chat.events.*");
    assertThat(NodeMetrics.family("__vertx.reply.17")).isEqualTo("__vertx.reply.*");
    assertThat(NodeMetrics.family("worker.local.local-1-3f2a9c.query.run")).isEqualTo("worker.local.*.query.run");
    assertThat(NodeMetrics.family("storage.message.append")).isEqualTo("storage.message.append");
  }
}
