package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.bus.Addresses;
import io.quarry.bus.StorageClient;
import io.quarry.bus.StorageOps.NewToken;
import io.quarry.bus.TokenScope;
import io.quarry.testing.BridgeClient;
import io.quarry.testing.JarCommand;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.UpgradeRejectedException;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.ext.web.client.WebClientSession;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Personal access tokens, one system for every door (issue 50, item 2): the account page's {@code /api/tokens}
 * (session only: a token mints no token), expiry refused alike at REST, the bridge and the WebSocket, the WebSocket
 * taking a Bearer token, and each token's pace of requests ({@code chat.tokenBurst} 3 here, then 1 a minute).
 */
class AccessTokensTest {

  @TempDir
  static Path dir;

  static Node node;
  static StorageClient storage;
  static int bridgePort;

  @BeforeAll
  static void start() {
    Map<String, String> env = TestNodes.env(dir);
    env.put("QUARRY_AUTH_MODE", "password");
    env.put("QUARRY_LOCAL_WORKERS", "0");
    env.put("QUARRY_CHAT_TOKEN_BURST", "3");
    env.put("QUARRY_CHAT_TOKEN_REQUESTS_PER_MINUTE", "1");
    env.put("QUARRY_CHAT_PING_INTERVAL_MS", "200");
    // One connection: a token's use is noted (without the request waiting) before anything the test asks next.
    env.put("QUARRY_STORAGE_POOL_SIZE", "1");
    bridgePort = JarCommand.freePort();
    env.put("QUARRY_BRIDGE_PORT", String.valueOf(bridgePort));
    node = TestNodes.start(env, dir);
    storage = new StorageClient(node.vertx());
  }

  @AfterAll
  static void stop() {
    node.stop().await();
  }

  private static WebClient client() {
    return WebClient.create(node.vertx(), new WebClientOptions().setDefaultHost("127.0.0.1")
        .setDefaultPort(node.httpPort()));
  }

  private static WebClientSession signedUp() {
    WebClientSession session = WebClientSession.create(client());
    String invite = storage.createInvite().await();
    assertThat(session.post("/api/auth/signup").sendJsonObject(new JsonObject()
        .put("email", "u-" + UUID.randomUUID() + "@example.com").put("password", "long enough")
        .put("invite", invite)).await().statusCode()).isEqualTo(201);
    return session;
  }

  private static HttpResponse<Buffer> send(HttpRequest<Buffer> request, JsonObject body) {
    return (body == null ? request.send() : request.sendJsonObject(body)).await();
  }

  private static HttpResponse<Buffer> bearer(HttpMethod method, String path, String token) {
    return client().request(method, path).putHeader("Authorization", "Bearer " + token).send().await();
  }

  private static JsonObject made(WebClientSession session, JsonObject body) {
    HttpResponse<Buffer> made = send(session.post("/api/tokens"), body);
    assertThat(made.statusCode()).as(made.bodyAsString()).isEqualTo(201);
    return made.bodyAsJsonObject();
  }

  private static JsonArray listed(WebClientSession session) {
    return send(session.get("/api/tokens"), null).bodyAsJsonObject().getJsonArray("tokens");
  }

  @Test
  @DisplayName("the account page's API: a token made with a name, scope and expiry is answered once, listed without"
      + " itself (name, scope, created, last used, expires, status), and revoked by its user; another user's is 404")
  void accountPage() {
    WebClientSession ada = signedUp();
    JsonObject made = made(ada, new JsonObject().put("name", "laptop").put("scope", "read")
        .put("expires_in_days", 30));
    String token = made.getString("token");
    assertThat(token).startsWith("qt_");
    assertThat(made.getString("scope")).isEqualTo("read");
    assertThat(Instant.parse(made.getString("expires_at")))
        .isBetween(Instant.now().plus(Duration.ofDays(30)).minusSeconds(60), Instant.now().plus(Duration.ofDays(30)));

    JsonObject info = listed(ada).getJsonObject(0);
    assertThat(info.fieldNames()).doesNotContain("token");
    assertThat(info.encode()).doesNotContain(token);
    assertThat(info.getString("name")).isEqualTo("laptop");
    assertThat(info.getString("status")).isEqualTo("active");
    assertThat(info.getString("last_used_at")).isNull();
    assertThat(info.getString("expires_at")).isEqualTo(made.getString("expires_at"));
    assertThat(bearer(HttpMethod.GET, "/api/me", token).statusCode()).isEqualTo(200);
    assertThat(listed(ada).getJsonObject(0).getString("last_used_at")).as("noted on use").isNotNull();

    WebClientSession bob = signedUp();
    HttpResponse<Buffer> theirs = send(bob.delete("/api/tokens/" + made.getString("id")), null);
    assertThat(theirs.statusCode()).isEqualTo(404);
    assertThat(bearer(HttpMethod.GET, "/api/me", token).statusCode()).as("still works").isEqualTo(200);
    assertThat(send(ada.delete("/api/tokens/" + made.getString("id")), null).statusCode()).isEqualTo(204);
    HttpResponse<Buffer> revoked = bearer(HttpMethod.GET, "/api/me", token);
    assertThat(revoked.statusCode()).isEqualTo(401);
    assertThat(revoked.bodyAsJsonObject().getString("error")).isEqualTo("Unknown or revoked token");
    assertThat(listed(ada).getJsonObject(0).getString("status")).isEqualTo("revoked");
    assertThat(listed(bob)).isEmpty();
  }

  @Test
  @DisplayName("the account page's API refuses a name past 100 characters, days outside 1 to 3,650 and an unknown"
      + " scope, naming the field")
  void refusedFields() {
    WebClientSession ada = signedUp();
    Map<JsonObject, String> refusals = Map.of(
        new JsonObject().put("name", "x".repeat(101)), "Field 'name' must be at most 100 characters",
        new JsonObject().put("expires_in_days", 0), "Field 'expires_in_days' must be a whole number from 1 to 3,650",
        new JsonObject().put("expires_in_days", "7"), "Field 'expires_in_days' must be a whole number from 1 to 3,650",
        new JsonObject().put("scope", "admin"), "Field 'scope' must be read, query or chat");
    refusals.forEach((body, error) -> {
      HttpResponse<Buffer> refused = send(ada.post("/api/tokens"), body);
      assertThat(refused.statusCode()).as(body.encode()).isEqualTo(400);
      assertThat(refused.bodyAsJsonObject().getString("error")).isEqualTo(error);
    });
    assertThat(listed(ada)).isEmpty();
  }

  @Test
  @DisplayName("a request made with a token may not list, make or revoke tokens, whatever its scope: 403 saying so, and"
      + " nothing is made or revoked")
  void tokensMintNoTokens() {
    WebClientSession ada = signedUp();
    JsonObject made = made(ada, new JsonObject().put("scope", "chat"));
    String token = made.getString("token");
    for (HttpResponse<Buffer> refused : new HttpResponse[] {
        bearer(HttpMethod.GET, "/api/tokens", token),
        client().post("/api/tokens").putHeader("Authorization", "Bearer " + token)
            .sendJsonObject(new JsonObject().put("name", "more")).await(),
        bearer(HttpMethod.DELETE, "/api/tokens/" + made.getString("id"), token)}) {
      assertThat(refused.statusCode()).isEqualTo(403);
      assertThat(refused.bodyAsJsonObject().getString("error")).isEqualTo("API tokens are listed, made and revoked in"
          + " a signed-in browser (the account page) or with the token command, not with a token");
    }
    assertThat(listed(ada)).hasSize(1);
    assertThat(listed(ada).getJsonObject(0).getString("status")).isEqualTo("active");
  }

  @Test
  @DisplayName("an expired token is refused at every door with when it expired: REST 401, the bridge's sign-in 401,"
      + " the WebSocket's upgrade 401")
  void expired() throws Exception {
    WebClientSession ada = signedUp();
    String userId = send(ada.get("/api/me"), null).bodyAsJsonObject().getString("id");
    String token = storage.createToken(NewToken.of(userId, TokenScope.CHAT, "old", "2026-01-02T00:00:00.000Z"))
        .await().token();
    String why = "This token expired on 2026-01-02";

    HttpResponse<Buffer> rest = bearer(HttpMethod.GET, "/api/me", token);
    assertThat(rest.statusCode()).isEqualTo(401);
    assertThat(rest.bodyAsJsonObject().getString("error")).isEqualTo(why);
    JsonObject bridge = BridgeClient.connect(node.vertx(), bridgePort).request(Addresses.BRIDGE_LOGIN,
        new JsonObject().put("token", token)).timeout(30, TimeUnit.SECONDS).await();
    assertThat(bridge.getInteger("code")).isEqualTo(401);
    assertThat(bridge.getString("message")).isEqualTo(why);
    assertThat(upgradeRefused(token)).isEqualTo(401);
    assertThat(listed(ada).getJsonObject(0).getString("status")).isEqualTo("expired");
  }

  /**
   * A socket that answers pings, and the reason it was closed with; with its client, held as long as the socket is:
   * Vert.x closes a client nothing references (and its sockets) when the garbage collector finds it.
   */
  private record Socket(WebSocketClient client, WebSocket ws, Future<String> closed) {
  }

  /** A program's socket: its token, and no Origin (Vert.x's client sends one unless told not to). */
  private static Socket open(String token) {
    WebSocketConnectOptions options = new WebSocketConnectOptions().setHost("127.0.0.1").setPort(node.httpPort())
        .setURI("/ws").addHeader("Authorization", "Bearer " + token).setAllowOriginHeader(false);
    WebSocketClient client = node.vertx().createWebSocketClient();
    WebSocket ws = client.connect(options).await();
    Promise<String> closed = Promise.promise();
    ws.closeHandler(v -> closed.tryComplete(ws.closeReason()));
    return new Socket(client, ws, closed.future());
  }

  private static int upgradeRefused(String token) {
    WebSocketConnectOptions options = new WebSocketConnectOptions().setHost("127.0.0.1").setPort(node.httpPort())
        .setURI("/ws").addHeader("Authorization", "Bearer " + token).setAllowOriginHeader(false);
    WebSocketClient client = node.vertx().createWebSocketClient();
    Throwable refused = catchThrowable(() -> client.connect(options).await());
    assertThat(refused).isInstanceOf(UpgradeRejectedException.class);
    return ((UpgradeRejectedException) refused).getStatus();
  }

  private static Throwable catchThrowable(Runnable run) {
    try {
      run.run();
    } catch (Throwable t) {
      return t;
    }
    throw new AssertionError("no failure");
  }

  @Test
  @DisplayName("the WebSocket takes a Bearer token on its upgrade, with no cookie and no Origin (a read token will do),"
      + " relays its user's events, and closes at the next ping once the token is revoked; then the upgrade is 401")
  void webSocket() throws Exception {
    WebClientSession ada = signedUp();
    String userId = send(ada.get("/api/me"), null).bodyAsJsonObject().getString("id");
    JsonObject made = made(ada, new JsonObject().put("scope", "read"));
    Socket socket = open(made.getString("token"));
    Promise<JsonObject> event = Promise.promise();
    socket.ws().textMessageHandler(text -> {
      JsonObject message = new JsonObject(text);
      if ("ping".equals(message.getString("type"))) {
        socket.ws().writeTextMessage(new JsonObject().put("type", "pong").encode());
      } else {
        event.tryComplete(message);
      }
    });
    node.vertx().eventBus().publish(Addresses.chatEvents(userId), new JsonObject().put("type", "hello"));
    assertThat(event.future().timeout(10, TimeUnit.SECONDS).await().getString("type")).isEqualTo("hello");

    assertThat(send(ada.delete("/api/tokens/" + made.getString("id")), null).statusCode()).isEqualTo(204);
    assertThat(socket.closed().timeout(10, TimeUnit.SECONDS).await()).isEqualTo("Unknown or revoked token");
    assertThat(upgradeRefused(made.getString("token"))).isEqualTo(401);
    WebSocketClient client = node.vertx().createWebSocketClient();
    assertThatThrownBy(() -> client.connect(new WebSocketConnectOptions()
        .setHost("127.0.0.1").setPort(node.httpPort()).setURI("/ws").setAllowOriginHeader(false)).await())
        .as("neither a token nor a session").isInstanceOf(UpgradeRejectedException.class);
  }

  @Test
  @DisplayName("each token has its own pace (chat.tokenBurst 3, then 1 a minute): the 3rd request passes, the 4th is"
      + " 429 with Retry-After naming the limit, at REST and at the bridge alike; the user's other token and session"
      + " go on")
  void pace() throws Exception {
    WebClientSession ada = signedUp();
    String token = made(ada, new JsonObject()).getString("token");
    for (int i = 0; i < 3; i++) {
      assertThat(bearer(HttpMethod.GET, "/api/me", token).statusCode()).as("request " + (i + 1)).isEqualTo(200);
    }
    HttpResponse<Buffer> past = bearer(HttpMethod.GET, "/api/me", token);
    assertThat(past.statusCode()).isEqualTo(429);
    assertThat(past.getHeader("Retry-After")).isEqualTo("60");
    String message = "Too many requests with this token: it may make 1 a minute after a burst of 3"
        + " (chat.tokenRequestsPerMinute, chat.tokenBurst); try again in 60 seconds";
    assertThat(past.bodyAsJsonObject().getString("error")).isEqualTo(message);

    BridgeClient bridge = BridgeClient.connect(node.vertx(), bridgePort);
    assertThat(bridge.request(Addresses.BRIDGE_LOGIN, new JsonObject().put("token", token))
        .timeout(30, TimeUnit.SECONDS).await().getString("type")).isEqualTo("message");
    JsonObject refused = bridge.request("api.conversation.list", new JsonObject()).timeout(30, TimeUnit.SECONDS)
        .await();
    assertThat(refused.getInteger("code")).isEqualTo(429);
    assertThat(refused.getString("message")).startsWith("Too many requests with this token");

    String other = made(ada, new JsonObject()).getString("token");
    assertThat(bearer(HttpMethod.GET, "/api/me", other).statusCode()).isEqualTo(200);
    assertThat(send(ada.get("/api/me"), null).statusCode()).isEqualTo(200);
  }
}
