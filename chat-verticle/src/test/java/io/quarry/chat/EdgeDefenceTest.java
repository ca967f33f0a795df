package io.quarry.chat;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import io.quarry.bus.Bus;
import io.quarry.bus.StorageOps;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetSocket;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.LoggerFactory;

/**
 * The red team's attacks on the HTTP edge, replayed: a page under a rebound name, bodies held open before
 * sign-in, slowloris, too many connections, and clients that go away mid-request.
 */
@ExtendWith(VertxExtension.class)
class EdgeDefenceTest {

  static final long WAIT_S = 10;

  ChatVerticle chat;
  WebClient client;
  /** The clients of raw connections, held as long as the test (see {@link #connect(Vertx, Promise)}). */
  private final List<NetClient> netClients = new java.util.ArrayList<>();

  private void deploy(Vertx vertx, JsonObject config) {
    new Bus(vertx).serve(StorageOps.USER_LOCAL,
        none -> Future.succeededFuture(ChatEdgeTest.LOCAL)).completion().await();
    chat = new ChatVerticle();
    vertx.deployVerticle(chat, new DeploymentOptions().setConfig(config.put("port", 0))).await();
    client = WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(chat.port()));
  }

  private HttpResponse<Buffer> get(String host, String path) {
    return client.get(path).virtualHost(host).send().await();
  }

  @Test
  @DisplayName("local mode answers only to its loopback names on its port: a rebound name gets 421 everywhere")
  void rebindingRefused(Vertx vertx) {
    deploy(vertx, new JsonObject());
    for (String path : new String[] {"/api/health", "/api/me", "/", "/js/app.js", "/ws"}) {
      HttpResponse<Buffer> rebound = get("rebind.attacker.example", path);
      assertThat(rebound.statusCode()).as(path).isEqualTo(421);
      assertThat(rebound.bodyAsJsonObject().getString("error")).isEqualTo(HostCheck.MESSAGE);
    }
    HttpResponse<Buffer> post = client.post("/api/conversations").virtualHost("rebind.attacker.example")
        .putHeader("Origin", "http://rebind.attacker.example:" + chat.port()).sendJsonObject(new JsonObject()).await();
    assertThat(post.statusCode()).isEqualTo(421);
    for (String host : new String[] {"127.0.0.1", "localhost", "LOCALHOST", "[::1]", "127.1.2.3"}) {
      assertThat(get(host, "/api/me").statusCode()).as(host).isEqualTo(200);
    }
    HttpResponse<Buffer> otherPort = client.get("/api/me").putHeader("Host", "localhost:1").send().await();
    assertThat(otherPort.statusCode()).isEqualTo(421);
  }

  @Test
  @DisplayName("a Host with userinfo, a path or a bad port (127.0.0.1:PORT@evil) is 400 or 421 like any other bad name, never 500")
  void malformedHostRefused(Vertx vertx) throws Exception {
    deploy(vertx, new JsonObject());
    int port = chat.port();
    for (String host : new String[] {"127.0.0.1:" + port + "@evil", "evil@127.0.0.1:" + port, "127.0.0.1:" + port + "/x",
        "127.0.0.1:" + port + "#x", "127.0.0.1:" + port + "?x", "127.0.0.1:99999", "127.0.0.1:" + port + ":1", "[::1"}) {
      String head = raw(vertx, "GET /api/health HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n");
      assertThat(head).as(host).matches("(?s)HTTP/1\\.1 (400|421) .*");
    }
    assertThat(raw(vertx, "GET / HTTP/1.1\r\nHost: 127.0.0.1:" + port + "@evil\r\nConnection: close\r\n\r\n"))
        .startsWith("HTTP/1.1 400").endsWith(new JsonObject().put("error", HttpErrors.BAD_HOST).encode());
    assertThat(raw(vertx, "GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nConnection: close\r\n\r\n"))
        .startsWith("HTTP/1.1 200");
  }

  @Test
  @DisplayName("local mode has no sign-in: another local client (127.0.0.2, no cookie) is the one person, and the"
      + " node says so when it starts")
  void localModeTrustsTheMachine(Vertx vertx) {
    List<String> said = new CopyOnWriteArrayList<>();
    AppenderBase<ILoggingEvent> appender = new AppenderBase<>() {
      @Override
      protected void append(ILoggingEvent event) {
        said.add(event.getFormattedMessage());
      }
    };
    appender.start();
    Logger logger = (Logger) LoggerFactory.getLogger(ChatVerticle.class);
    logger.addAppender(appender);
    try {
      deploy(vertx, new JsonObject());
    } finally {
      logger.detachAppender(appender);
    }
    WebClient other = WebClient.create(vertx, new WebClientOptions().setLocalAddress("127.0.0.2")
        .setDefaultHost("127.0.0.1").setDefaultPort(chat.port()));
    HttpResponse<Buffer> me = other.get("/api/me").send().await();
    assertThat(me.statusCode()).isEqualTo(200);
    assertThat(me.bodyAsJsonObject().getString("id")).isEqualTo(ChatEdgeTest.LOCAL.id());
    assertThat(said).contains("auth.mode=local has no sign-in: every account on this machine that can reach"
        + " 127.0.0.1:" + chat.port() + " uses Quarry as its one person. On a machine others log in to, set"
        + " QUARRY_AUTH_MODE=password");
  }

  @Test
  @DisplayName("a configured public origin is answered on its scheme's port; password mode without one answers any name")
  void publicOrigins(Vertx vertx) {
    deploy(vertx, new JsonObject().put("publicOrigins", "https://quarry.example.com, http://intranet:8443"));
    HttpResponse<Buffer> proxied = client.get("/api/health").putHeader("Host", "quarry.example.com")
        .putHeader("X-Forwarded-Proto", "https").send().await();
    assertThat(proxied.statusCode()).isEqualTo(200);
    assertThat(client.get("/api/health").putHeader("Host", "quarry.example.com").send().await().statusCode())
        .as("same name over plain http, port 80").isEqualTo(421);
    assertThat(client.get("/api/health").putHeader("Host", "intranet:8443").send().await().statusCode()).isEqualTo(200);
    assertThat(get("localhost", "/api/health").statusCode()).isEqualTo(200);
    assertThat(get("rebind.attacker.example", "/api/health").statusCode()).isEqualTo(421);
  }

  @Test
  @DisplayName("password mode with no public origin answers to whatever name the proxy in front uses")
  void passwordModeAnyName(Vertx vertx) {
    deploy(vertx, new JsonObject().put("authMode", Auth.PASSWORD));
    assertThat(get("quarry.internal", "/api/health").statusCode()).isEqualTo(200);
  }

  @Test
  @DisplayName("an anonymous request's body is never waited for: its connection ends at once, with a 401 if any answer")
  void noBodyBeforeSignIn(Vertx vertx) throws Exception {
    deploy(vertx, new JsonObject().put("authMode", Auth.PASSWORD));
    Buffer received = Buffer.buffer();
    Promise<Void> closed = Promise.promise();
    NetSocket socket = connect(vertx, closed);
    socket.handler(received::appendBuffer);
    // Not awaited: the server may close before every byte is written, which is the point.
    socket.write(head("POST /api/conversations", 1 << 20) + "{\"title\": \"" + "x".repeat(1000));
    closed.future().await(WAIT_S, TimeUnit.SECONDS);
    // Closed with the body still arriving, the connection may be reset before the 401 reaches the client.
    if (received.length() > 0) {
      assertThat(received.toString()).startsWith("HTTP/1.1 401").contains("Sign in first");
    }
  }

  @Test
  @DisplayName("sign-in reads at most 4 KB: a declared bigger body gets 413 at once, one at the limit is read")
  void smallAuthBodies(Vertx vertx) {
    deploy(vertx, new JsonObject().put("authMode", Auth.PASSWORD));
    String atLimit = padded(new JsonObject().put("email", "a@example.com").put("password", "x"), AuthApi.MAX_BODY_BYTES);
    HttpResponse<Buffer> read = client.post("/api/auth/signin").putHeader("Content-Type", "application/json")
        .sendBuffer(Buffer.buffer(atLimit)).await();
    assertThat(read.statusCode()).isNotEqualTo(413);
    HttpResponse<Buffer> tooBig = client.post("/api/auth/signin").putHeader("Content-Type", "application/json")
        .sendBuffer(Buffer.buffer(atLimit + " ")).await();
    assertThat(tooBig.statusCode()).isEqualTo(413);
    assertThat(tooBig.bodyAsJsonObject().getString("error")).isEqualTo("Request body is too large");
  }

  @Test
  @DisplayName("slowloris: a request head not complete within headerTimeoutMs loses its connection; a WebSocket does not")
  void slowHeadsClosed(Vertx vertx) throws Exception {
    // Long enough for the WebSocket's own head to arrive in time on a busy machine (the first one in a JVM loads its
    // classes between connecting and sending); the slow head still never completes.
    deploy(vertx, new JsonObject().put("headerTimeoutMs", 2_000));
    // Held to the end: Vert.x closes a client nothing references when it is collected, and its WebSocket with it.
    WebSocketClient sockets = vertx.createWebSocketClient();
    WebSocket socket = sockets.connect(new WebSocketConnectOptions().setHost("127.0.0.1")
        .setPort(chat.port()).setURI("/ws").addHeader("Origin", "http://127.0.0.1:" + chat.port())).await();
    // The slow head is sent after the WebSocket opened: its closing says the WebSocket's deadline passed too.
    Promise<Void> closed = Promise.promise();
    NetSocket slow = connect(vertx, closed);
    slow.write("GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-a: 1\r\n").await();
    closed.future().await(WAIT_S, TimeUnit.SECONDS);
    assertThat(socket.isClosed()).as("a WebSocket is past its request head").isFalse();
    // Closed here: a Vert.x closing with a WebSocket of its own still open waits out its shutdown grace (30 s), past
    // the test extension's patience.
    socket.close().await();
    sockets.close().await();
  }

  @Test
  @DisplayName("past maxConnections a new connection is closed at once when every connection has a request under way;"
      + " those open keep working")
  void connectionCap(Vertx vertx) throws Exception {
    deploy(vertx, new JsonObject().put("maxConnections", 3));
    List<WebSocket> busy = new java.util.ArrayList<>();
    WebSocketClient sockets = vertx.createWebSocketClient();
    for (int i = 0; i < 3; i++) {
      busy.add(sockets.connect(new WebSocketConnectOptions().setHost("127.0.0.1")
          .setPort(chat.port()).setURI("/ws").addHeader("Origin", "http://127.0.0.1:" + chat.port())).await());
    }
    Promise<Void> refused = Promise.promise();
    connect(vertx, refused);
    refused.future().await(WAIT_S, TimeUnit.SECONDS);
    busy.forEach(socket -> assertThat(socket.isClosed()).isFalse());
    Future.all(busy.stream().map(WebSocket::close).toList()).await();
    sockets.close().await();
  }

  @Test
  @DisplayName("past maxConnections a new connection takes the place of the one waiting longest for a request head"
      + " (past its first second), so idle connections never keep a client out")
  void idleConnectionsGiveWay(Vertx vertx) throws Exception {
    deploy(vertx, new JsonObject().put("maxConnections", 3));
    List<Promise<Void>> idle = List.of(Promise.promise(), Promise.promise(), Promise.promise());
    idle.forEach(closed -> connect(vertx, closed));
    // The idle connections must be past their first second, the grace a newcomer's own first bytes get.
    vertx.timer(1_100).await();
    assertThat(get("127.0.0.1", "/api/health").statusCode()).isEqualTo(200);
    idle.get(0).future().await(WAIT_S, TimeUnit.SECONDS);
    assertThat(idle.get(1).future().isComplete()).as("only the oldest gave way").isFalse();
  }

  @Test
  @DisplayName("a kept-alive connection outlives the request-head deadline between requests, announces its idle timeout"
      + " (Keep-Alive: timeout=120) and is reused by a pooled client after a pause")
  void keptAlive(Vertx vertx) throws Exception {
    deploy(vertx, new JsonObject().put("headerTimeoutMs", 300).put("idleTimeoutMs", 120_000));
    java.util.concurrent.atomic.AtomicInteger connections = new java.util.concurrent.atomic.AtomicInteger();
    io.vertx.core.http.HttpClient pooled = vertx.httpClientBuilder()
        .with(new io.vertx.core.http.HttpClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(chat.port()))
        .with(new io.vertx.core.http.PoolOptions().setHttp1MaxSize(1))
        .withConnectHandler(connection -> connections.incrementAndGet()).build();
    io.vertx.core.http.HttpClientResponse first = me(pooled);
    assertThat(first.statusCode()).isEqualTo(200);
    assertThat(first.getHeader("Keep-Alive")).isEqualTo("timeout=120");
    // Idle for longer than a request head may take, as a pooled client's connection is between two requests.
    vertx.timer(600).await();
    io.vertx.core.http.HttpClientResponse second = me(pooled);
    assertThat(second.statusCode()).isEqualTo(200);
    assertThat(connections.get()).as("the second request went over the first one's connection").isEqualTo(1);
  }

  /** GET /api/me, its body read. */
  private static io.vertx.core.http.HttpClientResponse me(io.vertx.core.http.HttpClient client) {
    return client.request(io.vertx.core.http.HttpMethod.GET, "/api/me")
        .compose(request -> request.send().compose(response -> response.body().map(response)))
        .timeout(WAIT_S, TimeUnit.SECONDS).await();
  }

  @Test
  @DisplayName("a client that goes away mid-body is no ERROR in the log")
  void abortedClientNotAnError(Vertx vertx) throws Exception {
    deploy(vertx, new JsonObject());
    int aborts = 5;
    Promise<Void> seen = Promise.promise();
    AtomicInteger gone = new AtomicInteger();
    List<ILoggingEvent> events = new CopyOnWriteArrayList<>();
    AppenderBase<ILoggingEvent> appender = new AppenderBase<>() {
      @Override
      protected void append(ILoggingEvent event) {
        events.add(event);
        if (event.getFormattedMessage().endsWith("the client went away") && gone.incrementAndGet() == aborts) {
          seen.tryComplete();
        }
      }
    };
    Logger errors = (Logger) LoggerFactory.getLogger(HttpErrors.class);
    errors.setLevel(Level.DEBUG);
    appender.start();
    root().addAppender(appender);
    try {
      for (int i = 0; i < aborts; i++) {
        NetSocket socket = connect(vertx);
        // The server says "100 Continue" as it starts reading the body (the request waits unread until it is signed
        // in): from then on, the client goes away mid-body, whatever the machine's load.
        Promise<Void> reading = Promise.promise();
        Buffer received = Buffer.buffer();
        socket.handler(data -> {
          received.appendBuffer(data);
          if (received.toString().startsWith("HTTP/1.1 100 Continue\r\n")) {
            reading.tryComplete();
          }
        });
        String head = head("POST /api/conversations", 10_000);
        socket.write(head.substring(0, head.length() - 2) + "Expect: 100-continue\r\n\r\n").await();
        reading.future().await(WAIT_S, TimeUnit.SECONDS);
        socket.write("{\"title\": \"").await();
        socket.close().await();
      }
      seen.future().await(WAIT_S, TimeUnit.SECONDS);
      assertThat(events).noneMatch(e -> e.getLevel().isGreaterOrEqual(Level.ERROR));
    } finally {
      root().detachAppender(appender);
      errors.setLevel(null);
    }
  }

  private static Logger root() {
    return (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
  }

  private NetSocket connect(Vertx vertx) {
    return connect(vertx, Promise.promise());
  }

  /** Sends {@code request} as it is, byte for byte, and answers what came back before the server closed. */
  private String raw(Vertx vertx, String request) throws Exception {
    Buffer received = Buffer.buffer();
    Promise<Void> closed = Promise.promise();
    NetSocket socket = connect(vertx, closed);
    socket.handler(received::appendBuffer);
    socket.write(request).await();
    closed.future().await(WAIT_S, TimeUnit.SECONDS);
    return received.toString();
  }

  /**
   * Watches for the close from the moment of connecting: the server may close before await() returns. Its client is
   * held by the test: Vert.x closes a client nothing references when it is collected, and its sockets with it, which
   * would look like the server closing them.
   */
  private NetSocket connect(Vertx vertx, Promise<Void> closed) {
    NetClient client = vertx.createNetClient();
    netClients.add(client);
    return client.connect(chat.port(), "127.0.0.1")
        .onSuccess(socket -> socket.closeHandler(v -> closed.tryComplete())).await();
  }

  private String head(String requestLine, int length) {
    return requestLine + " HTTP/1.1\r\nHost: 127.0.0.1:" + chat.port() + "\r\nContent-Type: application/json\r\n"
        + "Content-Length: " + length + "\r\n\r\n";
  }

  private static String padded(JsonObject json, int bytes) {
    String text = json.encode();
    return text.substring(0, text.length() - 1) + " ".repeat(bytes - text.length()) + "}";
  }
}
