package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LauncherTest {

  @TempDir
  Path dir;

  private Throwable startFailure(Map<String, String> env, String... argv) {
    try {
      Launcher.start(env, argv).await().stop().await();
    } catch (Throwable t) {
      return t;
    }
    throw new AssertionError("expected start-up to fail");
  }

  private Path config(String json) throws IOException {
    Path file = dir.resolve("config.json");
    Files.writeString(file, json);
    return file;
  }

  @Test
  @DisplayName("a node's Vert.x looks for no path on the class path (so it unpacks nothing into a vertx-cache-*"
      + " directory): the UI's main page, on it, is no file to it, while the chat role serves it")
  void noClassPathFiles() {
    assertThat(LauncherTest.class.getClassLoader().getResource("webroot/index.html")).as("on the class path").isNotNull();
    assertThat(Path.of("webroot/index.html")).as("in the working directory").doesNotExist();
    Node web = TestNodes.start(dir, "--roles", "web");
    try {
      assertThat(web.vertx().fileSystem().exists("webroot/index.html").await()).isFalse();
      HttpResponse<Buffer> page = WebClient.create(web.vertx()).get(web.httpPort(), "127.0.0.1", "/").send().await();
      assertThat(page.statusCode()).isEqualTo(200);
      assertThat(page.bodyAsString()).contains("<html");
    } finally {
      web.stop().await();
    }
  }

  @Test
  @DisplayName("a node runs one event loop unless vertx.eventLoops asks for more; fewer than one is refused")
  void eventLoops() {
    Node one = TestNodes.start(dir, "--roles", "web");
    try {
      assertThat(loopsUsed(one.vertx(), 4)).isEqualTo(1);
    } finally {
      one.stop().await();
    }
    Map<String, String> env = TestNodes.env(dir);
    env.put("QUARRY_VERTX_EVENT_LOOPS", "3");
    Node three = Launcher.start(env, "--roles", "web").await();
    try {
      assertThat(loopsUsed(three.vertx(), 6)).isEqualTo(3);
    } finally {
      three.stop().await();
    }
    env.put("QUARRY_VERTX_EVENT_LOOPS", "0");
    assertThat(startFailure(env, "--roles", "web").getMessage()).isEqualTo("vertx.eventLoops must be at least 1 (it is 0)");
  }

  /** How many threads run {@code verticles} verticles deployed one after the other (loops are given out in turn). */
  private static int loopsUsed(Vertx vertx, int verticles) {
    Set<String> threads = ConcurrentHashMap.newKeySet();
    for (int i = 0; i < verticles; i++) {
      vertx.deployVerticle(new VerticleBase() {
        @Override
        public Future<?> start() {
          threads.add(Thread.currentThread().getName());
          return Future.succeededFuture();
        }
      }).await();
    }
    return threads.size();
  }

  @Test
  @DisplayName("a node with --roles web serves HTTP without opening SQLite; storage calls answer 503")
  void webOnly() {
    Node node = TestNodes.start(dir, "--roles", "web");
    try {
      WebClient client = WebClient.create(node.vertx());
      JsonObject health = client.get(node.httpPort(), "127.0.0.1", "/api/health").send().await().bodyAsJsonObject();
      assertThat(health.getJsonArray("roles")).containsExactly("web");
      HttpResponse<Buffer> list = client.get(node.httpPort(), "127.0.0.1", "/api/conversations").send().await();
      assertThat(list.statusCode()).isEqualTo(503);
      assertThat(dir.resolve("quarry.db")).doesNotExist();
    } finally {
      node.stop().await();
    }
  }

  @Test
  @DisplayName("the default node deploys every role and creates its database under QUARRY_DATA_DIR")
  void allRoles() {
    // Nothing here runs SQL: no worker process is started for it.
    Map<String, String> env = TestNodes.env(dir);
    env.put("QUARRY_LOCAL_WORKERS_KEEP_WARM", "0");
    Node node = TestNodes.start(env, dir);
    try {
      JsonObject health = WebClient.create(node.vertx()).get(node.httpPort(), "127.0.0.1", "/api/health").send().await()
          .bodyAsJsonObject();
      assertThat(health.getJsonArray("roles")).containsExactlyInAnyOrder("storage", "worker", "dataset", "llm", "web");
      assertThat(dir.resolve("quarry.db")).exists();
    } finally {
      node.stop().await();
    }
  }

  @Test
  @DisplayName("invalid JSON in the config file fails start-up with a message naming the file")
  void badJson() throws IOException {
    Path file = config("{ \"chat\": { \"port\": 80 ");
    assertThat(startFailure(TestNodes.env(dir), "--config", file.toString()).getMessage())
        .startsWith("Invalid JSON in " + file);
  }

  @Test
  @DisplayName("an unknown setting, a wrong type or a secret in the file fails start-up with a clear message")
  void badSettings() throws IOException {
    Map<String, String> env = TestNodes.env(dir);
    assertThat(startFailure(env, "--config", config("{\"chat\": {\"prot\": 8080}}").toString()).getMessage())
        .isEqualTo("Unknown setting 'chat.prot' in " + dir.resolve("config.json"));
    assertThat(startFailure(env, "--config", config("{\"chat\": {\"port\": \"eighty\"}}").toString()).getMessage())
        .isEqualTo("'chat.port' in " + dir.resolve("config.json") + " must be a number, got eighty");
    assertThat(startFailure(env, "--config", config("{\"llm\": {\"apiKey\": \"k\"}}").toString()).getMessage())
        .isEqualTo("'llm.apiKey' must not be in " + dir.resolve("config.json") + ": set GEMINI_API_KEY in the environment instead");
    assertThat(startFailure(env, "--config", config("{\"nope\": {}}").toString()).getMessage())
        .startsWith("Unknown section 'nope'");
  }

  @Test
  @DisplayName("an environment variable that is not a number where one is needed fails start-up")
  void badEnvironment() {
    Map<String, String> env = TestNodes.env(dir);
    env.put("QUARRY_HTTP_PORT", "80a");
    assertThat(startFailure(env).getMessage()).isEqualTo("QUARRY_HTTP_PORT must be a whole number, got '80a'");
  }

  @Test
  @DisplayName("an unknown role or option fails start-up naming it")
  void badArguments() {
    assertThat(startFailure(TestNodes.env(dir), "--roles", "web,chef").getMessage())
        .isEqualTo("Unknown role 'chef'; roles are storage,worker,dataset,llm,web");
    assertThat(startFailure(TestNodes.env(dir), "--verbose").getMessage()).startsWith("Unknown option '--verbose'");
  }

  @Test
  @DisplayName("auth.mode=local refuses to listen beyond loopback; an unknown auth mode is refused")
  void localModeIsLoopbackOnly() {
    Map<String, String> env = TestNodes.env(dir);
    // The web role is refused whatever runs the SQL: without worker processes the start gets there in a fraction of the
    // time.
    env.put("QUARRY_LOCAL_WORKERS", "0");
    env.put("QUARRY_HTTP_HOST", "0.0.0.0");
    assertThat(startFailure(env, "--config", dir.resolve("absent.json").toString()).getMessage())
        .startsWith("web failed to start: auth.mode=local serves one person on one machine");
    env.put("QUARRY_AUTH_MODE", "oauth");
    env.put("QUARRY_HTTP_HOST", "127.0.0.1");
    assertThat(startFailure(env, "--config", dir.resolve("absent.json").toString()).getMessage())
        .isEqualTo("web failed to start: auth.mode must be 'local' or 'password', got 'oauth'");
  }

  @Test
  @DisplayName("a taken port fails start-up with the address in the message")
  void portTaken() {
    Vertx other = Vertx.vertx();
    try {
      HttpServer blocker = other.createHttpServer().requestHandler(r -> r.response().end()).listen(0, "127.0.0.1").await();
      Map<String, String> env = TestNodes.env(dir);
      // As above: the taken port fails the web role, whatever runs the SQL.
      env.put("QUARRY_LOCAL_WORKERS", "0");
      env.put("QUARRY_HTTP_PORT", String.valueOf(blocker.actualPort()));
      assertThat(startFailure(env, "--config", dir.resolve("absent.json").toString()).getMessage())
          .startsWith("web failed to start: Cannot listen on 127.0.0.1:" + blocker.actualPort());
    } finally {
      other.close().await();
    }
  }

  @Test
  @DisplayName("settings layer as defaults, then the file, then the environment, including the generic QUARRY_SECTION_KEY")
  void layering() throws IOException {
    Path file = config("{\"worker\": {\"queryTimeoutMs\": 5000}, \"llm\": {\"model\": \"from-file\"}}");
    Map<String, String> env = Map.of("QUARRY_MODEL", "from-env", "QUARRY_DATASET_MAX_DATASETS", "7",
        "QUARRY_ALLOW_PRIVATE_NETWORKS", "true", "GEMINI_API_KEY", "k-123");
    JsonObject config = ConfigLoader.load(file, env);
    assertThat(config.getJsonObject("query").getLong("timeoutMs")).as("the old name of the query timeout").isEqualTo(5000);
    assertThat(config.getJsonObject("worker").containsKey("queryTimeoutMs")).isFalse();
    assertThat(config.getJsonObject("llm").getString("model")).isEqualTo("from-env");
    assertThat(config.getJsonObject("llm").getString("apiKey")).isEqualTo("k-123");
    assertThat(config.getJsonObject("dataset").getLong("maxDatasets")).isEqualTo(7);
    assertThat(config.getJsonObject("dataset").getBoolean("allowPrivateNetworks")).isTrue();
    assertThat(config.getJsonObject("worker").getBoolean("allowPrivateNetworks")).isTrue();
    assertThat(config.getJsonObject("chat").getLong("port")).isEqualTo(8080);
  }

  @Test
  @DisplayName("a process that serves HTTP trusts its own sample files' and uploads' URLs; one that does not (a worker"
      + " process, a worker-only node) trusts only what its configuration names, not its default port's samples")
  void samplesTrustedByTheServerOnly() {
    Path none = dir.resolve("absent.json");
    String prefix = "http://127.0.0.1:9099/samples/";
    String uploads = "http://127.0.0.1:9099/uploads/";
    JsonObject web = ConfigLoader.load(none, Map.of("QUARRY_HTTP_PORT", "9099"), true);
    assertThat(web.getJsonObject("worker").getString("trustedUrlPrefixes")).isEqualTo(prefix + "," + uploads);
    assertThat(web.getJsonObject("dataset").getString("trustedUrlPrefixes")).isEqualTo(prefix + "," + uploads);
    assertThat(web.getJsonObject("chat").getString("samplesBaseUrl")).isEqualTo(prefix);
    assertThat(web.getJsonObject("chat").getString("uploadsBaseUrl")).isEqualTo(uploads);
    JsonObject worker = ConfigLoader.load(none, Map.of("QUARRY_HTTP_PORT", "9099",
        "QUARRY_WORKER_TRUSTED_URL_PREFIXES", "http://127.0.0.1:8123/samples/"), false);
    assertThat(worker.getJsonObject("worker").getString("trustedUrlPrefixes"))
        .isEqualTo("http://127.0.0.1:8123/samples/");
    assertThat(worker.getJsonObject("dataset").getString("trustedUrlPrefixes")).isEmpty();
  }

  @Test
  @DisplayName("one query timeout: QUARRY_QUERY_TIMEOUT_MS, or the README's QUARRY_WORKER_QUERY_TIMEOUT_MS, sets query.timeoutMs")
  void oneQueryTimeout() throws IOException {
    Path none = dir.resolve("absent.json");
    assertThat(ConfigLoader.load(none, Map.of("QUARRY_WORKER_QUERY_TIMEOUT_MS", "4000"))
        .getJsonObject("query").getLong("timeoutMs")).isEqualTo(4000);
    assertThat(ConfigLoader.load(none, Map.of("QUARRY_WORKER_QUERY_TIMEOUT_MS", "4000", "QUARRY_QUERY_TIMEOUT_MS", "3000"))
        .getJsonObject("query").getLong("timeoutMs")).as("the documented name wins").isEqualTo(3000);
    assertThat(ConfigLoader.load(config("{\"llm\": {\"queryTimeoutMs\": 2000}}"), Map.of())
        .getJsonObject("query").getLong("timeoutMs")).isEqualTo(2000);
    assertThatThrownBy(() -> ConfigLoader.load(config("{\"worker\": {\"queryTimeoutMs\": \"soon\"}}"), Map.of()))
        .hasMessageContaining("'query.timeoutMs'").hasMessageContaining("must be a number");
  }

  @Test
  @DisplayName("the process exits 1 with one line on standard error when start-up fails")
  void processExit() throws Exception {
    Path file = config("not json");
    Process process = new ProcessBuilder(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), Main.class.getName(), "--config", file.toString()))
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .start();
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    String stderr = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.exitValue()).isEqualTo(1);
    assertThat(stderr.lines().toList()).hasSize(1)
        .first().asString().startsWith("Quarry failed to start: Invalid JSON in " + file + ": ");
  }

  @Test
  @DisplayName("a log format other than text or json stops start-up with a message naming QUARRY_LOG_FORMAT")
  void logFormat() {
    Map<String, String> env = TestNodes.env(dir);
    env.put("QUARRY_LOG_FORMAT", "xml");
    assertThat(startFailure(env, "--roles", "web").getMessage())
        .isEqualTo("QUARRY_LOG_FORMAT must be 'text' or 'json', got 'xml'");
  }
}
