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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/** The sample datasets the server serves itself, with private networks refused as by default. */
class SamplesTest {

  @TempDir
  Path dir;

  Node node;
  WebClient client;

  @BeforeEach
  void start(TestInfo test) throws Exception {
    Map<String, String> env = TestNodes.env(dir);
    env.put("QUARRY_HTTP_PORT", String.valueOf(JarCommand.freePort()));
    // A URL refused as it is added reaches no worker: only the test whose sample is queried starts one with the node.
    if (!test.getTestMethod().orElseThrow().getName().equals("sampleOnWorkerProcesses")) {
      env.put("QUARRY_LOCAL_WORKERS_KEEP_WARM", "0");
    }
    node = TestNodes.startWarm(env, dir);
    client = WebClient.create(node.vertx(), new WebClientOptions().setDefaultHost("127.0.0.1")
        .setDefaultPort(node.httpPort()));
  }

  @AfterEach
  void stop() {
    node.stop().await();
  }

  private String conversation() {
    return TestNodes.send(client, HttpMethod.POST, "/api/conversations", new JsonObject()).bodyAsJsonObject()
        .getString("id");
  }

  private HttpResponse<Buffer> add(String conversation, String url) {
    return TestNodes.send(client, HttpMethod.POST, "/api/conversations/" + conversation + "/datasets",
        new JsonObject().put("url", url));
  }

  @Test
  @DisplayName("on a port other than 8080 and with private networks refused, a sample this node serves is added and "
      + "queried on its worker processes, which trust the node's samples and not their own default port's")
  void sampleOnWorkerProcesses() {
    JsonArray samples = TestNodes.send(client, HttpMethod.GET, "/api/samples", null).bodyAsJsonObject()
        .getJsonArray("samples");
    String url = samples.getJsonObject(0).getString("url");
    assertThat(url).isEqualTo("http://127.0.0.1:" + node.httpPort() + "/samples/"
        + url.substring(url.lastIndexOf('/') + 1));
    String conversation = conversation();

    HttpResponse<Buffer> added = add(conversation, url);
    assertThat(added.statusCode()).as(added.bodyAsString()).isEqualTo(201);
    long rows = added.bodyAsJsonObject().getLong("row_count");
    HttpResponse<Buffer> counted = TestNodes.send(client, HttpMethod.POST, "/api/conversations/" + conversation
        + "/query", new JsonObject().put("sql", "SELECT count(*) AS n FROM table1"));

    assertThat(counted.statusCode()).as(counted.bodyAsString()).isEqualTo(200);
    assertThat(counted.bodyAsJsonObject().getJsonArray("rows")).isEqualTo(new JsonArray().add(new JsonArray()
        .add(rows)));
  }

  @Test
  @DisplayName("with private networks refused, a URL that begins with the samples' prefix but leaves it once decoded and"
      + " resolved (/samples/%2e%2e/api/health), or that servers may read in more than one way, is not trusted: it is"
      + " refused as the node's own address is")
  void onlyTheSamplesAreTrusted() {
    String samples = "http://127.0.0.1:" + node.httpPort() + "/samples/";
    String conversation = conversation();
    for (String path : new String[] {"%2e%2e/api/health", "%2E%2E/", "%2e%2E/api/samples", ".%2e/api/health",
        "./../api/x", "..%2fapi", "%2e%2e%2Fapi%2Fhealth", "..%5capi", "..;/api/health", "%252e%252e/api/health",
        "x/../../api/health", "x/..//api/health", "..", "%2e%2e"}) {
      HttpResponse<Buffer> added = add(conversation, samples + path);
      assertThat(added.statusCode()).as(path + ": " + added.bodyAsString()).isEqualTo(400);
      assertThat(added.bodyAsJsonObject().getString("error")).as(path)
          .startsWith("URL points to a private or local network address, which is not allowed");
    }
  }
}
