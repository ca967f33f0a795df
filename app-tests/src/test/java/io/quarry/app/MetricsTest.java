package io.quarry.app;

import static io.quarry.testing.PrometheusSamples.samples;
import static io.quarry.testing.PrometheusSamples.value;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.testing.JarCommand;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The management listener of a node in the default mode (two worker processes): Vert.x's metrics and Quarry's, the
 * worker processes' labelled with their worker, after a dataset, a question and its query.
 */
class MetricsTest extends ChatTestBase {

  private final int port = JarCommand.freePort();

  @Override
  Map<String, String> env() {
    // Two worker processes, as by default. Started with the node only where a test needs them running: both where each
    // one's metrics must show labelled with its name, one where a query runs, none where only the port matters.
    String running = switch (test.getTestMethod().orElseThrow().getName()) {
      case "exposition" -> "2";
      case "quarryMeters" -> "1";
      default -> "0";
    };
    return Map.of("QUARRY_METRICS_PORT", String.valueOf(port), "QUARRY_LOCAL_WORKERS", "2",
        "QUARRY_LOCAL_WORKERS_KEEP_WARM", running);
  }

  private String scrape() {
    HttpResponse<Buffer> response = WebClient.create(chat.outside).get(port, "127.0.0.1", "/metrics").send().await();
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.getHeader("Content-Type")).isEqualTo("text/plain; version=0.0.4; charset=utf-8");
    return response.bodyAsString();
  }

  @Test
  @DisplayName("/metrics serves the node's metrics and each worker process's, labelled worker, every family declared once")
  void exposition() {
    String text = scrape();
    assertThat(samples(text, "jvm_memory_used_bytes")).anyMatch(s -> !s.contains("worker="))
        .anyMatch(s -> s.contains("worker=\"worker-1\"")).anyMatch(s -> s.contains("worker=\"worker-2\""));
    List<String> declared = text.lines().filter(l -> l.startsWith("# TYPE ")).map(l -> l.split(" ")[2]).toList();
    assertThat(declared).doesNotHaveDuplicates().contains("vertx_http_server_requests_total",
        "vertx_eventbus_handlers", "quarry_worker_queue_depth", "quarry_worker_in_flight", "quarry_websockets_open");
    assertThat(value(text, "quarry_websockets_open")).isEqualTo(1);
  }

  @Test
  @DisplayName("a dataset, a question and its query move Quarry's meters, whose labels name no user, URL or SQL")
  void quarryMeters() throws Exception {
    chat.addDataset(conversation, "/people.parquet");
    assertThat(chat.send(io.vertx.core.http.HttpMethod.POST, "/api/conversations/" + conversation + "/datasets",
        new JsonObject().put("url", "not a url")).statusCode()).isEqualTo(400);
    String sql = "SELECT count(*) AS people FROM table1";
    chat.gemini.next().call("execute_sql", new JsonObject().put("query", sql)).usage(120, 8);
    chat.gemini.next().answer("There are 100 people.");
    chat.asked(conversation, "How many people?");
    socket.untilTurnEnds();

    String text = scrape();
    assertThat(value(text, "quarry_datasets_added_total", "outcome=\"loaded\"")).isEqualTo(1);
    assertThat(value(text, "quarry_datasets_added_total", "outcome=\"invalid_url\"")).isEqualTo(1);
    assertThat(value(text, "quarry_turns_total", "outcome=\"completed\"")).isEqualTo(1);
    assertThat(value(text, "quarry_gemini_first_token_seconds_count")).isEqualTo(2);
    assertThat(value(text, "quarry_turn_duration_seconds_count")).isEqualTo(1);
    assertThat(value(text, "quarry_tool_calls_total", "tool=\"execute_sql\"", "outcome=\"ok\"")).isEqualTo(1);
    assertThat(value(text, "quarry_tokens_total", "kind=\"input\"")).isGreaterThanOrEqualTo(120);
    assertThat(value(text, "quarry_queries_seconds_count", "outcome=\"ok\"")).isEqualTo(1);
    assertThat(value(text, "quarry_query_rows_sum")).isEqualTo(1);
    assertThat(value(text, "quarry_cache_requests_total", "result=\"miss\"")).isGreaterThanOrEqualTo(1);
    // The cache is the worker processes': what counted is labelled with its worker (a meter registered in this test
    // JVM by an earlier test's in-process worker may show here too, at zero).
    assertThat(samples(text, "quarry_cache_requests_total")).filteredOn(s -> !s.endsWith(" 0.0"))
        .isNotEmpty().allMatch(s -> s.contains("worker=\"worker-"));
    assertThat(value(text, "quarry_cache_fetched_bytes_total")).isPositive();

    String userId = chat.send(io.vertx.core.http.HttpMethod.GET, "/api/me", null).bodyAsJsonObject().getString("id");
    assertThat(text).doesNotContain(conversation).doesNotContain(userId).doesNotContain(chat.files.url("/"))
        .doesNotContain("count(*)").doesNotContain("How many");
  }

  @Test
  @DisplayName("a metrics port already taken stops the node's start with a message naming metrics.port")
  void portTaken() {
    Map<String, String> env = TestNodes.env(dir.resolve("second"));
    env.put("QUARRY_METRICS_PORT", String.valueOf(port));
    Throwable failure = org.assertj.core.api.Assertions.catchThrowable(() -> TestNodes.start(env, dir.resolve("second"),
        "--roles", "web"));
    assertThat(failure).hasMessageContaining("Cannot serve metrics on 127.0.0.1:" + port + " (metrics.port; 0 for none)");
  }
}
