package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.testing.EventLog;
import io.quarry.testing.FakeGemini;
import io.quarry.testing.FakeModel;
import io.quarry.testing.FakeOpenAI;
import io.quarry.testing.ParquetFixtures;
import io.quarry.testing.ParquetServer;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * A whole Quarry node wired to a fake Gemini and a Parquet server on loopback (both on their own Vert.x,
 * as outside services are), with a REST client and a real WebSocket.
 */
final class ChatHarness implements AutoCloseable {

  final Vertx outside = Vertx.vertx();
  final FakeGemini gemini = FakeGemini.start(outside);
  /** The model server when the node runs with {@code QUARRY_LLM_PROVIDER=openai}. */
  final FakeOpenAI openai = FakeOpenAI.start(outside);
  final ParquetServer files = ParquetServer.start(outside);
  final Path dir;
  private final Map<String, String> env;
  private final String[] argv;
  /** Replaced by {@link #restartNode()}. */
  Node node;
  WebClient client;

  ChatHarness(Path dir) {
    this(dir, Map.of());
  }

  /** {@code argv}: extra command-line options for the node (e.g. {@code --cluster}). */
  ChatHarness(Path dir, Map<String, String> extraEnv, String... argv) {
    this.dir = dir;
    files.route("/people.parquet").content(ParquetFixtures.people(dir));
    Map<String, String> env = TestNodes.env(dir);
    env.put("GEMINI_API_KEY", "test-key");
    env.put("GEMINI_BASE_URL", gemini.baseUrl());
    env.put("OPENAI_API_KEY", "test-key");
    env.put("OPENAI_BASE_URL", openai.baseUrl());
    env.put("QUARRY_ALLOW_PRIVATE_NETWORKS", "true");
    env.put("QUARRY_LLM_RETRIES", "0");
    env.putAll(extraEnv);
    this.env = env;
    this.argv = argv;
    node = TestNodes.startWarm(env, dir, argv);
    client = clientOf(node);
  }

  /** The fake the node's provider talks to. */
  FakeModel<?> model() {
    return "openai".equals(env.get("QUARRY_LLM_PROVIDER")) ? openai : gemini;
  }

  private static WebClient clientOf(Node node) {
    return WebClient.create(node.vertx(), new WebClientOptions().setDefaultHost("127.0.0.1")
        .setDefaultPort(node.httpPort()));
  }

  /** The server stopped: browsers lose their sockets and their requests fail until {@link #restartNode()}. */
  void stopNode() {
    node.stop().await();
  }

  /** A new node on the stopped one's port, data and settings, as when the server is started again. */
  void restartNode() {
    Map<String, String> again = new java.util.HashMap<>(env);
    again.put("QUARRY_HTTP_PORT", String.valueOf(node.httpPort()));
    node = TestNodes.startWarm(again, dir, argv);
    client = clientOf(node);
  }

  /**
   * For the next test of a class that shares this node: its conversations (and so their datasets and results) are
   * deleted (the local user's; in password mode every test has an account of its own), the fake Gemini forgets its
   * scripts, and the Parquet server its routes (its files move to new addresses,
   * which the worker's cache has not seen).
   */
  void reset() {
    gemini.reset();
    openai.reset();
    files.reset();
    files.route("/people.parquet").content(ParquetFixtures.people(dir));
    if ("password".equals(env.get("QUARRY_AUTH_MODE"))) {
      // Each test signs a new account up, which sees nothing of the accounts before it; nobody is signed in here.
      return;
    }
    HttpResponse<Buffer> listed = send(HttpMethod.GET, "/api/conversations", null);
    assertThat(listed.statusCode()).as(listed.bodyAsString()).isEqualTo(200);
    for (Object each : listed.bodyAsJsonObject().getJsonArray("conversations")) {
      String id = ((JsonObject) each).getString("id");
      // An answer a test left running (stalled on purpose) ends first: a conversation being answered is not deleted.
      send(HttpMethod.POST, "/api/conversations/" + id + "/stop", null);
      HttpResponse<Buffer> deleted = send(HttpMethod.DELETE, "/api/conversations/" + id, null);
      assertThat(deleted.statusCode()).as("deleting conversation %s: %s", id, deleted.bodyAsString()).isEqualTo(204);
    }
    // Boards outlive conversations: the next test starts with none.
    HttpResponse<Buffer> boards = send(HttpMethod.GET, "/api/boards", null);
    for (Object each : boards.bodyAsJsonObject().getJsonArray("boards")) {
      send(HttpMethod.DELETE, "/api/boards/" + ((JsonObject) each).getString("id"), null);
    }
  }

  HttpResponse<Buffer> send(HttpMethod method, String path, JsonObject body) {
    var request = client.request(method, path);
    return (body == null ? request.send() : request.sendJsonObject(body)).await();
  }

  String conversation() {
    return send(HttpMethod.POST, "/api/conversations", new JsonObject()).bodyAsJsonObject().getString("id");
  }

  JsonObject addDataset(String conversation, String path) {
    HttpResponse<Buffer> added = send(HttpMethod.POST, "/api/conversations/" + conversation + "/datasets",
        new JsonObject().put("url", files.url(path)));
    assertThat(added.statusCode()).as(added.bodyAsString()).isEqualTo(201);
    return added.bodyAsJsonObject();
  }

  HttpResponse<Buffer> ask(String conversation, String content) {
    return send(HttpMethod.POST, "/api/conversations/" + conversation + "/messages", new JsonObject().put("content", content));
  }

  /** Asks and expects the 202; returns the id the answer streams under. */
  String asked(String conversation, String content) {
    HttpResponse<Buffer> response = ask(conversation, content);
    assertThat(response.statusCode()).as(response.bodyAsString()).isEqualTo(202);
    return response.bodyAsJsonObject().getString("message_id");
  }

  JsonObject conversationJson(String conversation) {
    return send(HttpMethod.GET, "/api/conversations/" + conversation, null).bodyAsJsonObject();
  }

  Socket socket() {
    return new Socket(node, node.httpPort(), "http://127.0.0.1:" + node.httpPort());
  }

  long sqlite(String sql) throws Exception {
    return TestNodes.sqlite(dir, sql);
  }

  @Override
  public void close() {
    node.stop().await();
    outside.close().await();
  }

  /** A browser's WebSocket: every event it receives, in order, with when it arrived. */
  static final class Socket implements AutoCloseable {
    private final EventLog events = new EventLog();
    private final WebSocketClient client;
    final WebSocket ws;

    Socket(Node node, int port, String origin) {
      client = node.vertx().createWebSocketClient();
      ws = client.connect(new WebSocketConnectOptions().setHost("127.0.0.1").setPort(port)
          .setURI("/ws").addHeader("Origin", origin)).await();
      ws.textMessageHandler(text -> events.add(new JsonObject(text)));
    }

    /** See {@link EventLog#next(Predicate)}. */
    JsonObject next(Predicate<JsonObject> wanted) throws InterruptedException {
      return events.next(wanted);
    }

    JsonObject next(String type) throws InterruptedException {
      return events.next(type);
    }

    List<JsonObject> untilTurnEnds() throws InterruptedException {
      return events.untilTurnEnds();
    }

    List<JsonObject> seen() {
      return events.seen();
    }

    static List<String> types(List<JsonObject> events) {
      return EventLog.types(events);
    }

    static String tokens(List<JsonObject> events) {
      return EventLog.tokens(events);
    }

    @Override
    public void close() {
      ws.close().await();
    }
  }
}
