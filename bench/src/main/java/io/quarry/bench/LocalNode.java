package io.quarry.bench;

import io.quarry.app.Launcher;
import io.quarry.app.Node;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * A node in the benchmark's JVM, as the SQL runner meets it: one worker process, files from loopback allowed, and the
 * per-user budget of changes lifted (a benchmark is one local user making thousands).
 */
final class LocalNode {

  private LocalNode() {
  }

  /** {@code extra}: more environment, over these defaults. */
  static Node start(Path dir, Map<String, String> extra) {
    Map<String, String> env = new HashMap<>();
    env.put("QUARRY_HTTP_PORT", "0");
    env.put("QUARRY_DATA_DIR", dir.toString());
    env.put("QUARRY_METRICS_PORT", "0");
    env.put("QUARRY_ALLOW_PRIVATE_NETWORKS", "true");
    env.put("QUARRY_LOCAL_WORKERS", "1");
    env.put("QUARRY_CHAT_WRITE_BURST", "100000");
    env.putAll(extra);
    return Launcher.start(env, "--config", dir.resolve("none.json").toString()).await();
  }

  static WebClient client(Node node) {
    return WebClient.create(node.vertx(), new WebClientOptions().setDefaultHost("127.0.0.1")
        .setDefaultPort(node.httpPort()));
  }

  /** The answer's body; a status of 300 or more ends the benchmark, with what the node said. */
  static JsonObject send(WebClient client, HttpMethod method, String path, JsonObject body) {
    HttpResponse<Buffer> response = client.request(method, path).sendJsonObject(body).await();
    if (response.statusCode() >= 300) {
      throw new IllegalStateException(path + " answered " + response.statusCode() + ": " + response.bodyAsString());
    }
    return response.bodyAsJsonObject();
  }
}
