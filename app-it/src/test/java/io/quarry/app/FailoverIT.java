package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.testing.BusCertificates;
import io.quarry.testing.FakeGemini;
import io.quarry.testing.JarCommand;
import io.quarry.testing.JarNode;
import io.quarry.testing.LoadClient;
import io.quarry.testing.OwnCluster;
import io.quarry.testing.ParquetFixtures;
import io.quarry.testing.ParquetServer;
import io.quarry.testing.PostgresServer;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Eight JVMs from the built jar on loopback, their event bus on TLS: two web (with dataset), two llm, two storage
 * (one PostgreSQL) and two worker nodes. While 20 conversations ask questions that run SQL, a storage node, an
 * llm node in the middle of answers and a web node holding WebSockets are killed with SIGKILL, one after another.
 */
class FailoverIT {

  static final int CONVERSATIONS = 20;
  static final int QUESTIONS = 8;
  static final String NODE_STOPPED = "The server writing this answer stopped. What it had written is kept; ask"
      + " again to continue.";

  @TempDir
  Path dir;

  final Vertx vertx = Vertx.vertx();
  final Map<String, JarNode> nodes = new HashMap<>();
  /** What every node's environment has: the cluster, PostgreSQL, fake Gemini and the limits of the load. */
  final Map<String, String> common = new HashMap<>();
  final List<LoadClient.Asked> asked = new CopyOnWriteArrayList<>();
  final AtomicInteger answered = new AtomicInteger();
  LoadClient browsers;
  /** Counted down by every answer: the moments to kill the next node. */
  final Map<Integer, CountDownLatch> after = Map.of(20, new CountDownLatch(20), 50, new CountDownLatch(50),
      80, new CountDownLatch(80));

  @AfterEach
  void stop() throws Exception {
    if (browsers != null) {
      browsers.closing();
    }
    nodes.values().forEach(JarNode::kill);
    vertx.close().await();
    report();
    traceLost();
    // The nodes' logs outlive the temporary directory, for whoever reads a failure.
    Path logs = Files.createDirectories(Path.of("target", "failover-logs"));
    for (String name : nodes.keySet()) {
      Files.copy(dir.resolve(name + ".log"), logs.resolve(name + ".log"), StandardCopyOption.REPLACE_EXISTING);
    }
  }

  @Test
  @DisplayName("SIGKILL a storage node, an llm node mid-answer and a web node under load: every question is answered"
      + " or fails clearly, nothing stored is lost, no conversation stays locked, and the next questions are answered")
  void failover() throws Exception {
    ParquetServer files = ParquetServer.start(vertx);
    files.route("/people.parquet").content(ParquetFixtures.people(dir));
    FakeGemini gemini = FakeGemini.start(vertx);
    gemini.respondWith(FailoverIT::modelTurn);
    List<Integer> webPorts = List.of(JarCommand.freePort(), JarCommand.freePort());
    launchCluster(gemini, webPorts);

    browsers = new LoadClient(vertx, webPorts);
    List<String> conversations = new ArrayList<>();
    for (int i = 0; i < CONVERSATIONS; i++) {
      conversations.add(browsers.conversation(files.url("/people.parquet")));
    }
    ExecutorService askers = Executors.newFixedThreadPool(CONVERSATIONS);
    List<Future<?>> running = conversations.stream().map(c -> askers.submit(() -> askAll(browsers, c))).<Future<?>>map(
        f -> f).toList();

    killWhen(20, "storage-1");
    killWhen(50, "llm-1");
    killWhen(80, "web-1");
    for (Future<?> f : running) {
      f.get(5, TimeUnit.MINUTES);
    }
    askers.shutdown();

    assertThat(asked).filteredOn(a -> a.outcome() == LoadClient.Outcome.LOST).as("questions lost").isEmpty();
    assertThat(browsers.errors).extracting(e -> e.getString("error")).as("answers ended by the llm node's death")
        .contains(NODE_STOPPED);
    assertThat(browsers.reconnects).as("browsers that moved to the other web node").isNotEmpty();
    JsonObject health = browsers.send("GET", "/api/health", null).bodyAsJsonObject();
    assertThat(health.getJsonArray("cluster_members")).as("the members still alive").hasSize(5);
    // The outsider's request waits out the storage timeouts (three tries of 10 s) while what was stored is read back
    // and the next questions are asked.
    CompletableFuture<HttpResponse<Buffer>> outsiderAnswer = outsiderAsks();
    nothingLost(browsers);
    for (String conversation : conversations) {
      LoadClient.Asked next = browsers.ask(conversation, "And now?");
      assertThat(next.outcome()).as("a question after the failures: " + next).isEqualTo(LoadClient.Outcome.ANSWERED);
      // The node left to answer says so before its first word: an answer can be followed to its node. (Its output
      // reaches the test through a reader thread, which may not have read that line yet.)
      nodes.get("llm-2").awaitLine("Answer " + next.messageId() + " of conversation " + conversation + " started", 30);
    }
    HttpResponse<Buffer> refused = outsiderAnswer.get(2, TimeUnit.MINUTES);
    System.out.printf("the outsider answered %d %s%n", refused.statusCode(), refused.bodyAsString());
    assertThat(refused.statusCode()).as("the outsider's answer").isEqualTo(503);
    assertThat(refused.bodyAsString()).doesNotContain(conversations.get(0));
  }

  /**
   * A node of the cluster's Hazelcast without the bus certificate (its bus in the clear: cluster.insecure=true) serves
   * nothing of the cluster's: its requests to the members are refused. It starts, and its conversations are asked
   * for, on a thread of their own.
   */
  private CompletableFuture<HttpResponse<Buffer>> outsiderAsks() throws Exception {
    int port = JarCommand.freePort();
    Map<String, String> env = new HashMap<>(common);
    env.put("QUARRY_DATA_DIR", Files.createDirectories(dir.resolve("outsider")).toString());
    env.put("QUARRY_HTTP_PORT", String.valueOf(port));
    JarNode outsider = JarNode.launch(dir.resolve("outsider.log"), env, "--cluster", "--roles", "web", "--config",
        dir.resolve("absent.json").toString());
    nodes.put("outsider", outsider);
    return CompletableFuture.supplyAsync(() -> {
      try {
        outsider.awaitStarted(240);
      } catch (Exception e) {
        throw new IllegalStateException("the outsider did not start", e);
      }
      return WebClient.create(vertx).get(port, "127.0.0.1", "/api/conversations").timeout(60_000).send().await();
    });
  }

  /** One model response: a call of execute_sql, or, once its result is in, the answer. */
  private static FakeGemini.Script modelTurn(FakeGemini.Request request) {
    JsonArray contents = request.contents();
    JsonObject last = contents.getJsonObject(contents.size() - 1);
    boolean resultIn = last.getJsonArray("parts").stream()
        .anyMatch(p -> ((JsonObject) p).containsKey("functionResponse"));
    FakeGemini.Script script = new FakeGemini.Script().pause(150);
    return resultIn ? script.text("There are ").pause(150).text("100 people.").usage(200, 6)
        : script.call("execute_sql", new JsonObject().put("query", "SELECT count(*) AS n FROM table1")).usage(150, 9);
  }

  private void askAll(LoadClient browsers, String conversation) {
    for (int q = 0; q < QUESTIONS; q++) {
      LoadClient.Asked one = browsers.ask(conversation, "How many people? (" + q + ")");
      asked.add(one);
      if (one.outcome() == LoadClient.Outcome.ANSWERED) {
        answered.incrementAndGet();
        after.values().forEach(CountDownLatch::countDown);
      }
    }
  }

  private void launchCluster(FakeGemini gemini, List<Integer> webPorts) throws Exception {
    PostgresServer postgres = PostgresServer.shared();
    BusCertificates ca = BusCertificates.authority(dir.resolve("certs"), "failover");
    Map<String, String> env = common;
    env.putAll(OwnCluster.env("quarry-failover-"));
    env.put("QUARRY_CLUSTER_HEARTBEAT_SECONDS", "1");
    env.put("QUARRY_CLUSTER_MAX_NO_HEARTBEAT_SECONDS", "5");
    env.put("QUARRY_STORAGE_BACKEND", "postgres");
    env.put("QUARRY_STORAGE_PORT", String.valueOf(postgres.port()));
    env.put("QUARRY_STORAGE_DATABASE", postgres.newDatabase());
    env.put("QUARRY_STORAGE_USER", PostgresServer.USER);
    env.put("GEMINI_API_KEY", "test-key");
    env.put("GEMINI_BASE_URL", gemini.baseUrl());
    env.put("QUARRY_LLM_RETRIES", "0");
    env.put("QUARRY_LLM_ANSWER_CHECKPOINT_MS", "100");
    env.put("QUARRY_ALLOW_PRIVATE_NETWORKS", "true");
    env.put("QUARRY_QUERY_TIMEOUT_MS", "10000");
    env.put("QUARRY_DATASET_WORKER_TIMEOUT_MS", "5000");
    // The one local user stands for 20 people, each asking in a conversation of their own.
    env.put("QUARRY_LLM_MAX_TURNS_PER_USER", String.valueOf(CONVERSATIONS));
    env.put("QUARRY_DATASET_MAX_QUERIES_PER_USER", "1000");
    env.put("QUARRY_DATASET_MAX_WAITING_QUERIES_PER_USER", "1000");
    env.put("QUARRY_CHAT_WRITE_BURST", "100000");
    env.put("QUARRY_CHAT_WRITES_PER_MINUTE", "100000");
    launch(env, ca, "storage-1", "storage", 0);
    launch(env, ca, "storage-2", "storage", 0);
    launch(env, ca, "worker-1", "worker", 0);
    launch(env, ca, "worker-2", "worker", 0);
    launch(env, ca, "llm-1", "llm", 0);
    launch(env, ca, "llm-2", "llm", 0);
    launch(env, ca, "web-1", "web,dataset", webPorts.get(0));
    launch(env, ca, "web-2", "web,dataset", webPorts.get(1));
    for (JarNode node : nodes.values()) {
      node.awaitStarted(240);
    }
  }

  private void launch(Map<String, String> common, BusCertificates ca, String name, String roles, int httpPort)
      throws Exception {
    Map<String, String> env = new HashMap<>(common);
    BusCertificates.Identity identity = ca.issue(name);
    env.put("QUARRY_CLUSTER_KEY_FILE", identity.key().toString());
    env.put("QUARRY_CLUSTER_CERT_FILE", identity.cert().toString());
    env.put("QUARRY_CLUSTER_CA_FILE", identity.ca().toString());
    env.put("QUARRY_DATA_DIR", Files.createDirectories(dir.resolve(name)).toString());
    env.put("QUARRY_HTTP_PORT", String.valueOf(httpPort));
    nodes.put(name, JarNode.launch(dir.resolve(name + ".log"), env, "--cluster", "--roles", roles, "--config",
        dir.resolve("absent.json").toString()));
  }

  /** SIGKILL once {@code answers} questions have been answered (bounded: the load must get there). */
  private void killWhen(int answers, String node) throws Exception {
    assertThat(after.get(answers).await(2, TimeUnit.MINUTES)).as("%d answers before killing %s (%d so far)",
        answers, node, answered.get()).isTrue();
    JarNode doomed = nodes.get(node);
    doomed.kill();
    assertThat(doomed.process.waitFor(10, TimeUnit.SECONDS)).isTrue();
    System.out.printf("killed %s after %d answers%n", node, answered.get());
  }

  /** Every question that got a 202 is stored with its answer, ended; every answered one's results are readable. */
  private void nothingLost(LoadClient browsers) {
    Map<String, JsonArray> stored = new HashMap<>();
    int results = 0;
    for (LoadClient.Asked a : asked) {
      if (a.messageId() == null) {
        continue;
      }
      JsonArray messages = stored.computeIfAbsent(a.conversation(), c -> browsers.send("GET",
          "/api/conversations/" + c, null).bodyAsJsonObject().getJsonArray("messages"));
      assertThat(messages.stream().map(JsonObject.class::cast).map(m -> m.getString("id")))
          .as("the question of " + a).contains(a.userMessageId());
      JsonObject answer = messages.stream().map(JsonObject.class::cast)
          .filter(m -> a.messageId().equals(m.getString("id"))).findFirst().orElse(null);
      assertThat(answer).as("the answer of " + a).isNotNull();
      assertThat(answer.getString("status")).as("how %s ended: %s", a, answer.copy().remove("tool_rounds") == null
          ? answer : answer.copy().put("tool_rounds", "…")).isIn(LoadClient.FINAL);
      if (a.outcome() == LoadClient.Outcome.ANSWERED) {
        assertThat(answer.getString("content")).isEqualTo("There are 100 people.");
        for (Object id : answer.getJsonArray("result_ids", new JsonArray())) {
          assertThat(browsers.send("GET", "/api/results/" + id, null).statusCode()).as("result " + id).isEqualTo(200);
          results++;
        }
      }
    }
    System.out.printf("%d conversations read back, %d results read back%n", stored.size(), results);
    assertThat(results).isPositive();
  }

  /** What the nodes logged of each lost question's conversation: which llm node had its answer, and how it ended. */
  private void traceLost() {
    for (LoadClient.Asked lost : asked.stream().filter(a -> a.outcome() == LoadClient.Outcome.LOST).toList()) {
      System.out.println("what the nodes logged of " + lost.conversation() + ":");
      nodes.forEach((name, node) -> node.lines().stream().filter(line -> line.contains(lost.conversation()))
          .forEach(line -> System.out.println("  " + name + ": " + line)));
    }
  }

  private void report() {
    Map<LoadClient.Outcome, Long> outcomes = new HashMap<>();
    asked.forEach(a -> outcomes.merge(a.outcome(), 1L, Long::sum));
    System.out.println("outcomes: " + outcomes);
    asked.stream().filter(a -> a.outcome() != LoadClient.Outcome.ANSWERED).forEach(a -> System.out.println("  " + a));
  }
}
