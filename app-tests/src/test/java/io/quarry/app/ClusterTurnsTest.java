package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.Addresses;
import io.quarry.bus.ChatMessage;
import io.quarry.bus.Keys;
import io.quarry.bus.TurnClaim;
import io.quarry.testing.FakeGemini;
import io.quarry.testing.OwnCluster;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A web node (storage, dataset, web) and two llm nodes, clustered in one JVM on loopback: the llm node running an
 * answer dies (its Hazelcast member terminated, as a killed process's would be) and the browser hears of it.
 */
class ClusterTurnsTest {

  static final String NODE_STOPPED = "The server writing this answer stopped. What it had written is kept; ask"
      + " again to continue.";

  @TempDir
  Path dir;

  final Vertx outside = Vertx.vertx();
  final FakeGemini gemini = FakeGemini.start(outside);
  final List<Node> nodes = new ArrayList<>();

  @AfterEach
  void stop() {
    nodes.forEach(n -> n.stop().toCompletionStage().toCompletableFuture().completeOnTimeout(null, 30, TimeUnit.SECONDS)
        .join());
    outside.close().await();
  }

  private Node node(Map<String, String> env, String name, String roles) throws Exception {
    Map<String, String> own = new HashMap<>(env);
    own.put("QUARRY_DATA_DIR", Files.createDirectories(dir.resolve(name)).toString());
    Node node = TestNodes.start(own, dir, "--cluster", "--roles", roles);
    nodes.add(node);
    return node;
  }

  @Test
  @DisplayName("an llm node dies mid-answer: 409 on both llm nodes while it ran, then a chat_error within 10 s of it"
      + " leaving, the answer so far kept as interrupted, and the next question answered by the other node")
  void llmNodeDies() throws Exception {
    Map<String, String> env = TestNodes.env(dir);
    env.putAll(OwnCluster.env("quarry-turns-"));
    env.put("QUARRY_CLUSTER_HEARTBEAT_SECONDS", "1");
    env.put("QUARRY_CLUSTER_MAX_NO_HEARTBEAT_SECONDS", "5");
    env.put("GEMINI_API_KEY", "test-key");
    env.put("GEMINI_BASE_URL", gemini.baseUrl());
    env.put("QUARRY_LLM_RETRIES", "0");
    env.put("QUARRY_LLM_ANSWER_CHECKPOINT_MS", "100");
    Node web = node(env, "web", "storage,dataset,web");
    List<Node> llms = List.of(node(env, "llm-1", "llm"), node(env, "llm-2", "llm"));
    WebClient client = WebClient.create(web.vertx(), new WebClientOptions().setDefaultHost("127.0.0.1")
        .setDefaultPort(web.httpPort()));
    String conversation = send(client, HttpMethod.POST, "/api/conversations", new JsonObject()).bodyAsJsonObject()
        .getString("id");
    Promise<Void> checkpointed = Promise.promise();
    web.vertx().eventBus().addInboundInterceptor(ctx -> {
      if (ctx.message().address().equals(Addresses.STORAGE_MESSAGE_APPEND)
          && ChatMessage.STREAMING.equals(((JsonObject) ctx.message().body()).getJsonObject("message")
          .getString("status"))) {
        checkpointed.tryComplete();
      }
      ctx.next();
    });
    Promise<String> left = Promise.promise();
    web.vertx().eventBus().<JsonObject>localConsumer(Addresses.CLUSTER_MEMBER_LEFT,
        m -> left.tryComplete(m.body().getString(Keys.NODE_ID))).completion().await();

    try (ChatHarness.Socket socket = new ChatHarness.Socket(web, web.httpPort(), "http://127.0.0.1:" + web.httpPort())) {
      gemini.next().text("Half an answer").stall();
      String messageId = ask(client, conversation, "Tell me").bodyAsJsonObject().getString(Keys.MESSAGE_ID);
      socket.next("chat_token");
      for (int i = 0; i < 4; i++) {
        HttpResponse<Buffer> refused = ask(client, conversation, "Again " + i);
        assertThat(refused.statusCode()).isEqualTo(409);
        assertThat(refused.bodyAsJsonObject().getString("error"))
            .isEqualTo("Generation already in progress for this conversation");
      }
      checkpointed.future().await(10, TimeUnit.SECONDS);

      String running = TurnClaim.decode(web.vertx().sharedData().<String, String>getAsyncMap(Addresses.TURNS_MAP)
          .await().get(conversation).await()).nodeId();
      Node doomed = llms.stream().filter(n -> Clustering.memberId(manager(n)).equals(running)).findFirst().orElseThrow();
      manager(doomed).getHazelcastInstance().getLifecycleService().terminate();

      assertThat(left.future().await(30, TimeUnit.SECONDS)).isEqualTo(running);
      JsonObject error = socket.next("chat_error"); // waits at most 10 s
      assertThat(error.getString("message_id")).isEqualTo(messageId);
      assertThat(error.getString("error")).isEqualTo(NODE_STOPPED);

      JsonArray messages = send(client, HttpMethod.GET, "/api/conversations/" + conversation, null)
          .bodyAsJsonObject().getJsonArray("messages");
      JsonObject kept = messages.getJsonObject(messages.size() - 1);
      assertThat(kept.getString("content")).isEqualTo("Half an answer");
      assertThat(kept.getString("status")).isEqualTo(ChatMessage.INTERRUPTED);
      assertThat(kept.getString("notice")).isEqualTo("This answer was interrupted when the server writing it stopped.");

      gemini.next().answer("Still ", "here.");
      ask(client, conversation, "Are you there?");
      assertThat(ChatHarness.Socket.tokens(socket.untilTurnEnds())).isEqualTo("Still here.");
    }
  }

  private static HazelcastClusterManager manager(Node node) {
    return (HazelcastClusterManager) ((VertxInternal) node.vertx()).clusterManager();
  }

  private static HttpResponse<Buffer> ask(WebClient client, String conversation, String content) {
    return send(client, HttpMethod.POST, "/api/conversations/" + conversation + "/messages",
        new JsonObject().put("content", content));
  }

  private static HttpResponse<Buffer> send(WebClient client, HttpMethod method, String path, JsonObject body) {
    var request = client.request(method, path);
    return (body == null ? request.send() : request.sendJsonObject(body)).await();
  }
}
