package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.testing.JarCommand;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sample datasets the server serves itself, with private networks refused as by default. */
class SamplesTest {

  @TempDir
  Path dir;

  @Test
  @DisplayName("on a port other than 8080 and with private networks refused, a sample this node serves is added and "
      + "queried on its worker processes, which trust the node's samples and not their own default port's")
  void sampleOnWorkerProcesses() throws Exception {
    Map<String, String> env = TestNodes.env(dir);
    env.put("QUARRY_HTTP_PORT", String.valueOf(JarCommand.freePort()));
    Node node = TestNodes.start(env, dir);
    try {
      WebClient client = WebClient.create(node.vertx(), new WebClientOptions().setDefaultHost("127.0.0.1")
          .setDefaultPort(node.httpPort()));
      JsonArray samples = TestNodes.send(client, HttpMethod.GET, "/api/samples", null).bodyAsJsonObject()
          .getJsonArray("samples");
      String url = samples.getJsonObject(0).getString("url");
      assertThat(url).isEqualTo("http://127.0.0.1:" + node.httpPort() + "/samples/"
          + url.substring(url.lastIndexOf('/') + 1));
      String conversation = TestNodes.send(client, HttpMethod.POST, "/api/conversations", new JsonObject())
          .bodyAsJsonObject().getString("id");

      HttpResponse<Buffer> added = TestNodes.send(client, HttpMethod.POST,
          "/api/conversations/" + conversation + "/datasets", new JsonObject().put("url", url));
      assertThat(added.statusCode()).as(added.bodyAsString()).isEqualTo(201);
      long rows = added.bodyAsJsonObject().getLong("row_count");
      HttpResponse<Buffer> counted = TestNodes.send(client, HttpMethod.POST, "/api/conversations/" + conversation
          + "/query", new JsonObject().put("sql", "SELECT count(*) AS n FROM table1"));

      assertThat(counted.statusCode()).as(counted.bodyAsString()).isEqualTo(200);
      assertThat(counted.bodyAsJsonObject().getJsonArray("rows")).isEqualTo(new JsonArray().add(new JsonArray()
          .add(rows)));
    } finally {
      node.stop().await();
    }
  }
}
