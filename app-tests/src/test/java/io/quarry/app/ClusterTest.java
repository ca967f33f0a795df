package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.multimap.MultiMap;
import io.quarry.bus.Addresses;
import io.quarry.bus.ChatEvents;
import io.quarry.bus.LlmClient;
import io.quarry.bus.QueryRequest;
import io.quarry.bus.WorkerReply;
import io.quarry.testing.FakeGemini;
import io.quarry.testing.OwnCluster;
import io.quarry.testing.ParquetFixtures;
import io.quarry.testing.ParquetServer;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.spi.cluster.RegistrationInfo;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import io.vertx.spi.cluster.hazelcast.impl.HazelcastRegistrationInfo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three clustered nodes in one JVM on loopback, under a random cluster name: the web node (storage, llm,
 * dataset, web) and two worker-only nodes.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterTest {

  @TempDir
  static Path dir;
  static Map<String, String> base;
  static Vertx outside;
  static FakeGemini gemini;
  static ParquetServer files;
  static Node web;
  static Node workerB;
  static Node workerC;
  static WebClient client;
  static String conversation;

  @BeforeAll
  static void startCluster() throws Exception {
    outside = Vertx.vertx();
    gemini = FakeGemini.start(outside);
    files = ParquetServer.start(outside);
    files.route("/people.parquet").content(ParquetFixtures.people(dir));
    base = new HashMap<>(TestNodes.env(dir));
    base.putAll(OwnCluster.env("quarry-test-"));
    base.put("QUARRY_ALLOW_PRIVATE_NETWORKS", "true");
    workerB = node("b", "worker");
    workerC = node("c", "worker");
    Map<String, String> webEnv = new HashMap<>(base);
    webEnv.put("GEMINI_API_KEY", "test-key");
    webEnv.put("GEMINI_BASE_URL", gemini.baseUrl());
    webEnv.put("QUARRY_LLM_RETRIES", "0");
    web = TestNodes.start(webEnv, dir, "--cluster", "--roles", "storage,llm,dataset,web");
    client = WebClient.create(web.vertx(), new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(web.httpPort()));
    conversation = client.post("/api/conversations").sendJsonObject(new JsonObject()).await().bodyAsJsonObject().getString("id");
    assertThat(client.post("/api/conversations/" + conversation + "/datasets")
        .sendJsonObject(new JsonObject().put("url", files.url("/people.parquet"))).await().statusCode()).isEqualTo(201);
  }

  private static Node node(String name, String roles) throws Exception {
    Map<String, String> env = new HashMap<>(base);
    Path data = Files.createDirectories(dir.resolve(name));
    env.put("QUARRY_DATA_DIR", data.toString());
    env.put("QUARRY_METRICS_PORT", "0");
    WorkerClassPath.use(env);
    return Launcher.start(env, "--config", dir.resolve("absent.json").toString(), "--cluster", "--roles", roles).await();
  }

  @AfterAll
  static void stopCluster() {
    for (Node n : new Node[] {web, workerB, workerC}) {
      if (n != null) {
        n.stop().await();
      }
    }
    if (outside != null) {
      outside.close().await();
    }
  }

  @Test
  @Order(1)
  @DisplayName("health on the web node lists all three members and the roles present in the cluster")
  void health() {
    JsonObject health = client.get("/api/health").send().await().bodyAsJsonObject();
    assertThat(health.getJsonArray("roles")).containsExactlyInAnyOrder("storage", "llm", "dataset", "web");
    assertThat(health.getJsonArray("cluster_members")).hasSize(3);
    assertThat(health.getJsonArray("roles_present")).contains("worker", "storage", "web");
  }

  @Test
  @Order(2)
  @DisplayName("queries from the web node, which has no worker, are answered by the workers of the other nodes, both of them")
  void workSpreads() {
    Set<String> servedBy = new HashSet<>();
    for (int i = 0; i < 12; i++) {
      Buffer reply = web.vertx().eventBus().<Buffer>request(Addresses.WORKER_QUERY_RUN,
          new QueryRequest("SELECT count(*) AS n FROM people", Map.of("people", files.url("/people.parquet")), 10_000)
              .toJson()).await().body();
      assertThat(WorkerReply.decode(reply).rowValues().getJsonArray(0).getLong(0)).isEqualTo(100);
      servedBy.add(WorkerReply.header(reply).getString("served_by"));
    }
    assertThat(servedBy).hasSize(2);
    JsonObject rest = client.post("/api/conversations/" + conversation + "/query")
        .sendJsonObject(new JsonObject().put("sql", "SELECT max(age) AS oldest FROM table1")).await().bodyAsJsonObject();
    assertThat(rest.getJsonArray("rows").getJsonArray(0).getLong(0)).isEqualTo(69);
  }

  @Test
  @Order(3)
  @DisplayName("a second node with the storage role refuses to start, saying why")
  void oneStorage() {
    Throwable failure = null;
    try {
      node("d", "storage").stop().await();
    } catch (Throwable t) {
      failure = t;
    }
    assertThat(failure).isNotNull();
    assertThat(failure.getMessage()).contains("Another node of this cluster already has the storage role");
  }

  @Test
  @Order(4)
  @DisplayName("a separate clustered application runs SQL and gets its rows as a JSON array, and asks a question and receives chat_token … chat_complete")
  void busIntegration() throws Exception {
    String userId = client.get("/api/me").send().await().bodyAsJsonObject().getString("id");
    Vertx app = Vertx.builder().withClusterManager(new HazelcastClusterManager(Clustering.hazelcastConfig(
        TestNodes.clusterSection(base), null))).buildClustered().await();
    try {
      // Plain JSON, as any clustered application reads it: the rows Quarry carries as text arrive as an array.
      JsonObject result = app.eventBus().<JsonObject>request(Addresses.DATASET_QUERY_RUN, new JsonObject()
          .put("user_id", userId).put("conversation_id", conversation).put("sql", "SELECT age FROM table1 ORDER BY id LIMIT 2"))
          .await().body();
      assertThat(result.getJsonArray("rows")).isEqualTo(new JsonArray().add(new JsonArray().add(21)).add(new JsonArray().add(22)));
      BlockingQueue<JsonObject> events = new LinkedBlockingQueue<>();
      MessageConsumer<JsonObject> consumer = app.eventBus().consumer(Addresses.chatEvents(userId), m -> events.add(m.body()));
      consumer.completion().await();
      gemini.next().answer("Hello ", "from the cluster.");
      JsonObject started = new LlmClient(app).start(userId, conversation, "Say hello").await().toJson();
      List<String> types = new ArrayList<>();
      StringBuilder text = new StringBuilder();
      while (!types.contains(ChatEvents.CHAT_COMPLETE)) {
        JsonObject event = events.poll(10, TimeUnit.SECONDS);
        assertThat(event).as("events so far: " + types).isNotNull();
        types.add(event.getString("type"));
        if (ChatEvents.CHAT_TOKEN.equals(event.getString("type"))) {
          assertThat(event.getString("message_id")).isEqualTo(started.getString("message_id"));
          text.append(event.getString("token"));
        }
      }
      assertThat(types).containsSubsequence("chat_token", "chat_token", "chat_complete");
      assertThat(text.toString()).isEqualTo("Hello from the cluster.");
    } finally {
      app.close().await();
    }
  }

  @Test
  @Order(4)
  @DisplayName("a bus registration of a node that is no longer a member (one the cluster manager's own cleanup missed)"
      + " is removed when a departure has settled; the members' own registrations stay")
  void staleRegistrationsGo() {
    HazelcastClusterManager manager = (HazelcastClusterManager) ((VertxInternal) web.vertx()).clusterManager();
    MultiMap<String, HazelcastRegistrationInfo> registrations =
        manager.getHazelcastInstance().getMultiMap(StaleRegistrations.REGISTRATIONS);
    long live = realRegistrations(registrations);
    registrations.put("quarry.test.stale", new HazelcastRegistrationInfo(new RegistrationInfo("a-node-gone", 1, false)));
    registrations.put(Addresses.STORAGE_SESSION_FIND,
        new HazelcastRegistrationInfo(new RegistrationInfo("another-node-gone", 7, false)));

    List<String> heard = new java.util.concurrent.CopyOnWriteArrayList<>();
    java.util.UUID listening = registrations.addEntryListener(new com.hazelcast.core.EntryAdapter<>() {
      @Override
      public void onEntryEvent(com.hazelcast.core.EntryEvent<String, HazelcastRegistrationInfo> event) {
        heard.add(event.getEventType() + " " + event.getKey());
      }
    }, Addresses.STORAGE_SESSION_FIND, false);

    // Every member also sweeps after a departure (the separate application of busIntegration left): that sweep may
    // take them first, so the outcome counts, not who removed them.
    StaleRegistrations.sweep(manager);
    assertThat(registrations.containsKey("quarry.test.stale")).isFalse();
    assertThat(realRegistrations(registrations)).isEqualTo(live);
    // Every member reads each remaining address anew: it hears a change to it (a marker added, then removed).
    assertThat(registrations.get(Addresses.STORAGE_SESSION_FIND))
        .noneMatch(r -> r.unwrap().nodeId().equals(StaleRegistrations.NOBODY));
    assertThat(StaleRegistrations.sweep(manager)).isZero();
    // Another member's sweep's marker, caught between its put and its removal (the oldest member sweeps after every
    // departure, 2 s after busIntegration's application left): removed, and not counted as a node's.
    registrations.put("quarry.test.marked", new HazelcastRegistrationInfo(
        new RegistrationInfo(StaleRegistrations.NOBODY, 0, true)));
    assertThat(StaleRegistrations.sweep(manager)).isZero();
    assertThat(registrations.containsKey("quarry.test.marked")).isFalse();
    registrations.removeEntryListener(listening);
    assertThat(heard).contains("REMOVED " + Addresses.STORAGE_SESSION_FIND, "ADDED " + Addresses.STORAGE_SESSION_FIND);
  }

  /** Registrations of nodes, not the markers a sweep running beside the test adds and removes. */
  private static long realRegistrations(MultiMap<String, HazelcastRegistrationInfo> registrations) {
    return registrations.values().stream().filter(r -> !r.unwrap().nodeId().equals(StaleRegistrations.NOBODY)).count();
  }

  @Test
  @Order(5)
  @DisplayName("when a worker node leaves, queries and a chat turn's SQL keep being answered by the other")
  void workerLeaves() throws Exception {
    workerB.stop().await();
    workerB = null;
    for (int i = 0; i < 5; i++) {
      JsonObject rest = client.post("/api/conversations/" + conversation + "/query")
          .sendJsonObject(new JsonObject().put("sql", "SELECT count(*) AS n FROM table1")).await().bodyAsJsonObject();
      assertThat(rest.getJsonArray("rows")).isEqualTo(new JsonArray().add(new JsonArray().add(100)));
    }
    String userId = client.get("/api/me").send().await().bodyAsJsonObject().getString("id");
    try (EventRecorder events = new EventRecorder(web, userId)) {
      gemini.next().call("execute_sql", new JsonObject().put("query", "SELECT count(*) AS n FROM table1")).usage(10, 1);
      gemini.next().answer("Still 100.");
      assertThat(client.post("/api/conversations/" + conversation + "/messages")
          .sendJsonObject(new JsonObject().put("content", "How many now?")).await().statusCode()).isEqualTo(202);
      List<String> types = new ArrayList<>();
      while (!types.contains(ChatEvents.CHAT_COMPLETE) && !types.contains(ChatEvents.CHAT_ERROR)) {
        JsonObject event = events.next(1).get(0);
        types.add(event.getString("type"));
        if (ChatEvents.QUERY_RESULT.equals(event.getString("type"))) {
          assertThat(event.getJsonArray("rows")).isEqualTo(new JsonArray().add(new JsonArray().add(100)));
        }
      }
      assertThat(types).containsSubsequence(ChatEvents.QUERY_RESULT, ChatEvents.CHAT_COMPLETE);
    }
  }
}
