package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Liveness and readiness as a load balancer asks them: without a session. */
class HealthTest {

  @TempDir
  Path dir;

  @Test
  @DisplayName("a whole node is live and ready, and says so to a caller without a session (password mode)")
  void ready() {
    Map<String, String> env = TestNodes.env(dir);
    env.put("QUARRY_AUTH_MODE", "password");
    // As shipped: no worker process starts before a query needs one, and the node is ready without.
    env.put("QUARRY_LOCAL_WORKERS_KEEP_WARM", "0");
    Node node = TestNodes.start(env, dir);
    try {
      assertThat(get(node, "/api/health/live").statusCode()).isEqualTo(200);
      HttpResponse<Buffer> ready = get(node, "/api/health/ready");
      assertThat(ready.statusCode()).as(ready.bodyAsString()).isEqualTo(200);
      assertThat(ready.bodyAsJsonObject().getString("status")).isEqualTo("ready");
    } finally {
      node.stop().await();
    }
  }

  @Test
  @DisplayName("a web node with no storage and no query worker in reach is live but not ready, and says why")
  void notReady() {
    Node node = TestNodes.start(dir, "--roles", "web");
    try {
      assertThat(get(node, "/api/health/live").statusCode()).isEqualTo(200);
      HttpResponse<Buffer> ready = get(node, "/api/health/ready");
      assertThat(ready.statusCode()).isEqualTo(503);
      JsonObject body = ready.bodyAsJsonObject();
      assertThat(body.getString("status")).isEqualTo("not_ready");
      assertThat(body.getJsonArray("reasons").getList()).hasSize(2)
          .anyMatch(r -> r.toString().startsWith("Storage does not answer"))
          .anyMatch(r -> r.toString().startsWith("No query worker is ready"));
    } finally {
      node.stop().await();
    }
  }

  private static HttpResponse<Buffer> get(Node node, String path) {
    return WebClient.create(node.vertx(), new WebClientOptions().setDefaultHost("127.0.0.1")
        .setDefaultPort(node.httpPort())).get(path).send().await();
  }
}
