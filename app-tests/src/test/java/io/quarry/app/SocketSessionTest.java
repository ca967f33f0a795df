package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.StorageClient;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.ext.web.client.WebClientSession;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A WebSocket lives no longer than its session, and takes nothing from the browser but small pongs. */
class SocketSessionTest {

  @TempDir
  Path dir;

  Node node;

  @BeforeEach
  void start() {
    node = TestNodes.start(Map.of("QUARRY_HTTP_PORT", "0", "QUARRY_DATA_DIR", dir.toString(),
        "QUARRY_AUTH_MODE", "password", "QUARRY_CHAT_PING_INTERVAL_MS", "200", "QUARRY_LOCAL_WORKERS", "0"), dir);
  }

  @AfterEach
  void stop() {
    node.stop().await();
  }

  private WebClientSession signedUp(String email) {
    WebClientSession session = WebClientSession.create(WebClient.create(node.vertx(),
        new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(node.httpPort())));
    String invite = new StorageClient(node.vertx()).createInvite().await();
    assertThat(session.post("/api/auth/signup").sendJsonObject(new JsonObject().put("email", email)
        .put("password", "long enough").put("invite", invite)).await().statusCode()).isEqualTo(201);
    return session;
  }

  private WebClientSession signedIn(String email) {
    WebClientSession session = WebClientSession.create(WebClient.create(node.vertx(),
        new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(node.httpPort())));
    assertThat(session.post("/api/auth/signin").sendJsonObject(new JsonObject().put("email", email)
        .put("password", "long enough")).await().statusCode()).isEqualTo(200);
    return session;
  }

  private static String token(WebClientSession session) {
    // The session's cookie, not the device cookie that sign-in sets beside it.
    for (io.netty.handler.codec.http.cookie.Cookie cookie : session.cookieStore().get(false, "127.0.0.1", "/")) {
      if (cookie.name().equals("quarry_session")) {
        return cookie.value();
      }
    }
    throw new AssertionError("no session cookie");
  }

  /**
   * A socket that answers pings, and the status it was closed with; with its client, held as long as the socket is:
   * Vert.x closes a client nothing references (and its sockets) when the garbage collector finds it.
   */
  private record Socket(WebSocketClient client, WebSocket ws, Future<Short> closed) {
  }

  private Socket open(WebClientSession session) {
    WebSocketConnectOptions options = new WebSocketConnectOptions().setHost("127.0.0.1").setPort(node.httpPort())
        .setURI("/ws").addHeader("Origin", "http://127.0.0.1:" + node.httpPort())
        .addHeader("Cookie", "quarry_session=" + token(session));
    WebSocketClient client = node.vertx().createWebSocketClient();
    WebSocket ws = client.connect(options).await();
    Promise<Short> closed = Promise.promise();
    ws.textMessageHandler(text -> {
      if ("ping".equals(new JsonObject(text).getString("type"))) {
        ws.writeTextMessage(new JsonObject().put("type", "pong").encode());
      }
    });
    ws.closeHandler(v -> closed.tryComplete(ws.closeStatusCode()));
    return new Socket(client, ws, closed.future());
  }

  private static short closedWith(Socket socket) throws Exception {
    return socket.closed().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @Test
  @DisplayName("signing out closes that session's sockets at once; the same user's other session keeps its own")
  void signOut() throws Exception {
    WebClientSession laptop = signedUp("ivy@example.com");
    WebClientSession phone = signedIn("ivy@example.com");
    Socket onLaptop = open(laptop);
    Socket onPhone = open(phone);
    assertThat(laptop.post("/api/auth/signout").send().await().statusCode()).isEqualTo(200);
    assertThat(closedWith(onLaptop)).isEqualTo((short) 1008);
    assertThat(onLaptop.ws().closeReason()).isEqualTo("Signed out");
    // Several pings later the other session's socket is still open.
    Promise<Void> pinged = Promise.promise();
    int[] pings = {0};
    onPhone.ws().textMessageHandler(text -> {
      onPhone.ws().writeTextMessage(new JsonObject().put("type", "pong").encode());
      if (++pings[0] == 3) {
        pinged.tryComplete();
      }
    });
    pinged.future().await();
    assertThat(onPhone.ws().isClosed()).isFalse();
  }

  @Test
  @DisplayName("a session that ends without a sign-out (expired, purged) closes its socket at the next ping")
  void sessionEnds() throws Exception {
    WebClientSession session = signedUp("jo@example.com");
    Socket socket = open(session);
    String hash = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
        .digest(token(session).getBytes(StandardCharsets.UTF_8)));
    new StorageClient(node.vertx()).deleteSession(hash).await();
    assertThat(closedWith(socket)).isEqualTo((short) 1008);
    assertThat(socket.ws().closeReason()).isEqualTo("Session ended");
  }

  @Test
  @DisplayName("a 60 KB frame, or any message but a pong, closes the socket instead of being read")
  void onlyPongs() throws Exception {
    WebClientSession session = signedUp("kim@example.com");
    Socket flooded = open(session);
    flooded.ws().writeTextMessage("x".repeat(60 * 1024));
    // Netty's decoder refuses the frame from its header and drops the connection (1006), or says 1009 first.
    assertThat(closedWith(flooded)).isIn((short) 1006, (short) 1009);
    Socket chatty = open(session);
    chatty.ws().writeTextMessage(new JsonObject().put("type", "hello").encode());
    assertThat(closedWith(chatty)).isEqualTo((short) 1008);
    Socket binary = open(session);
    binary.ws().writeBinaryMessage(Buffer.buffer(new byte[] {1, 2, 3}));
    assertThat(closedWith(binary)).isEqualTo((short) 1008);
  }
}
