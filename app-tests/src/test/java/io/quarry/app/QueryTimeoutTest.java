package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class QueryTimeoutTest {

  @TempDir
  Path dir;

  @Test
  @DisplayName("QUARRY_QUERY_TIMEOUT_MS cancels a runaway query with error_type timeout, and the next query runs")
  void timeout() {
    Map<String, String> env = TestNodes.env(dir);
    env.put("QUARRY_QUERY_TIMEOUT_MS", "700");
    Node node = TestNodes.start(env, dir);
    try {
      WebClient client = WebClient.create(node.vertx());
      String id = client.post(node.httpPort(), "127.0.0.1", "/api/conversations").send().await()
          .bodyAsJsonObject().getString("id");
      String path = "/api/conversations/" + id + "/query";
      HttpResponse<Buffer> slow = client.post(node.httpPort(), "127.0.0.1", path)
          .sendJsonObject(new JsonObject().put("sql", "SELECT count(*) FROM range(100000000000) r WHERE r.range % 3 = 1"))
          .await();
      assertThat(slow.statusCode()).isEqualTo(504);
      assertThat(slow.bodyAsJsonObject().getString("error_type")).isEqualTo("timeout");
      assertThat(slow.bodyAsJsonObject().getString("error")).isEqualTo("Query timed out after 0.7 s and was cancelled");
      HttpResponse<Buffer> next = client.post(node.httpPort(), "127.0.0.1", path)
          .sendJsonObject(new JsonObject().put("sql", "SELECT 42 AS answer")).await();
      assertThat(next.bodyAsJsonObject().getJsonArray("rows").getJsonArray(0).getInteger(0)).isEqualTo(42);
    } finally {
      node.stop().await();
    }
  }
}
