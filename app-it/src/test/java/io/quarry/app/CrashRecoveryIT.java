package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.testing.FakeGemini;
import io.quarry.testing.JarCommand;
import io.quarry.testing.JarNode;
import io.quarry.testing.ParquetFixtures;
import io.quarry.testing.ParquetServer;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The built jar killed with SIGKILL mid-answer and mid-add, then started again on the same data directory. */
class CrashRecoveryIT {

  @TempDir
  Path dir;

  /** The node's temporary directory, its own so that what it leaves there can be told from other processes'. */
  @TempDir
  Path temp;

  final Vertx vertx = Vertx.vertx();
  final FakeGemini gemini = FakeGemini.start(vertx);
  final ParquetServer files = ParquetServer.start(vertx);
  JarNode node;
  WebClient client;
  String conversation;

  @AfterEach
  void stop() {
    if (node != null) {
      node.kill();
    }
    vertx.close().await();
  }

  @Test
  @DisplayName("SIGKILL mid-answer and mid-add: after a restart the question and partial answer show as interrupted,"
      + " the add failed with Retry that works, and the conversation takes a new question; the killed node left no copy"
      + " of SQLite's library and nothing of Vert.x's file cache behind, though it served its pages")
  void nothingLost() throws Exception {
    files.route("/people.parquet").content(ParquetFixtures.people(dir));
    ParquetServer.Held head = files.route("/people.parquet").holdTails();
    int port = JarCommand.freePort();
    Map<String, String> env = Map.of("QUARRY_HTTP_PORT", String.valueOf(port),
        "QUARRY_DATA_DIR", dir.resolve("data").toString(), "QUARRY_LOCAL_WORKERS", "1",
        "GEMINI_API_KEY", "test-key", "GEMINI_BASE_URL", gemini.baseUrl(), "QUARRY_LLM_RETRIES", "0",
        "QUARRY_ALLOW_PRIVATE_NETWORKS", "true", "QUARRY_LLM_ANSWER_CHECKPOINT_MS", "200");
    start(env);
    client = WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(port));
    conversation = client.post("/api/conversations").send().await().bodyAsJsonObject().getString("id");

    client.post(path("/datasets")).sendJsonObject(new JsonObject().put("url", files.url("/people.parquet")));
    head.arrived().await();
    gemini.next().text("The people table ").text("has 100 rows and").gate("never");
    HttpResponse<Buffer> asked = client.post(path("/messages"))
        .sendJsonObject(new JsonObject().put("content", "Describe the people")).await();
    assertThat(asked.statusCode()).isEqualTo(202);
    awaitConversation(c -> last(c).getString("content").equals("The people table has 100 rows and"));

    for (String page : new String[] {"/", "/c/" + conversation, "/boards", "/favicon.svg", "/samples/cars.parquet"}) {
      assertThat(client.get(page).send().await().statusCode()).as(page).isEqualTo(200);
    }
    Path maps = Path.of("/proc", String.valueOf(node.process.pid()), "maps");
    if (Files.isReadable(maps)) {
      // Its copy in the temporary directory, which SQLite's driver deletes only on a clean exit, is gone already.
      assertThat(Files.readAllLines(maps).stream().filter(line -> line.contains("libsqlitejdbc")))
          .as("SQLite's library, loaded from a copy deleted since").isNotEmpty()
          .allMatch(line -> line.endsWith(" (deleted)"));
    }
    node.process.descendants().forEach(ProcessHandle::destroyForcibly);
    node.process.destroyForcibly().onExit().get(30, TimeUnit.SECONDS);
    try (Stream<Path> left = Files.list(temp)) {
      // Vert.x copied class-path files it served into a vertx-cache-* directory, deleted only at a clean stop.
      assertThat(left.map(p -> p.getFileName().toString())).as("what the killed node left in its temporary directory")
          .noneMatch(name -> name.startsWith("vertx-cache")).noneMatch(name -> name.contains("sqlite"));
    }
    head.release();
    // Restarted with its worker warm, and ready before the retry: the retry's check then waits for no worker to start.
    Map<String, String> warm = new HashMap<>(env);
    warm.put("QUARRY_LOCAL_WORKERS_KEEP_WARM", "1");
    start(warm);
    node.awaitWorkerReady(120);

    JsonObject reloaded = conversation();
    JsonArray messages = reloaded.getJsonArray("messages");
    assertThat(messages).hasSize(2);
    assertThat(messages.getJsonObject(0).getString("content")).isEqualTo("Describe the people");
    JsonObject partial = messages.getJsonObject(1);
    assertThat(partial.getString("id")).isEqualTo(asked.bodyAsJsonObject().getString("message_id"));
    assertThat(partial.getString("content")).isEqualTo("The people table has 100 rows and");
    assertThat(partial.getString("status")).isEqualTo("interrupted");
    assertThat(partial.getString("notice")).isEqualTo("This answer was interrupted when the server stopped.");
    JsonObject dataset = reloaded.getJsonArray("datasets").getJsonObject(0);
    assertThat(dataset.getString("status")).isEqualTo("error");
    assertThat(dataset.getString("error_message"))
        .isEqualTo("Adding this dataset was interrupted when the server stopped; retry to add it again");

    JsonObject retried = client.post(path("/datasets/" + dataset.getString("id") + "/refresh")).send().await()
        .bodyAsJsonObject();
    assertThat(retried.getString("status")).as(retried.encode()).isEqualTo("ready");
    assertThat(retried.getLong("row_count")).isEqualTo(100L);
    gemini.next().answer("Back, ", "and answering.");
    assertThat(client.post(path("/messages")).sendJsonObject(new JsonObject().put("content", "Still there?")).await()
        .statusCode()).isEqualTo(202);
    JsonObject answered = awaitConversation(c -> c.getJsonArray("messages").size() == 4
        && "complete".equals(last(c).getString("status")));
    assertThat(last(answered).getString("content")).isEqualTo("Back, and answering.");
  }

  private void start(Map<String, String> env) throws Exception {
    node = JarNode.launch(dir.resolve("node-" + System.nanoTime() + ".log"), List.of("-Djava.io.tmpdir=" + temp), env);
    node.awaitStarted(120);
  }

  private String path(String rest) {
    return "/api/conversations/" + conversation + rest;
  }

  private JsonObject conversation() {
    return client.get(path("")).send().await().bodyAsJsonObject();
  }

  private static JsonObject last(JsonObject conversation) {
    JsonArray messages = conversation.getJsonArray("messages");
    return messages.getJsonObject(messages.size() - 1);
  }

  /** Reads the conversation until it shows what is wanted: the node saves on its own timer, in another process. */
  private JsonObject awaitConversation(Predicate<JsonObject> wanted) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (System.nanoTime() < deadline) {
      JsonObject c = conversation();
      if (wanted.test(c)) {
        return c;
      }
      vertx.timer(50).await();
    }
    throw new AssertionError("the conversation never showed what was wanted: " + conversation().encode());
  }
}
