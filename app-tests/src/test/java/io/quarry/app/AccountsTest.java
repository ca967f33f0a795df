package io.quarry.app;

import static io.quarry.app.HttpAssertions.assertError;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.UpgradeRejectedException;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.ext.web.client.WebClientSession;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** auth.mode=password end to end: invites, sign-up, sign-in, sign-out, sessions, 401s and origins. */
class AccountsTest {

  @TempDir
  Path dir;

  Map<String, String> env;
  Node node;
  WebClient plain;

  @BeforeEach
  void start() {
    env = TestNodes.env(dir);
    env.put("QUARRY_AUTH_MODE", "password");
    // Accounts run no SQL: a node without worker processes (nor their private cluster) starts in a fraction of the time.
    env.put("QUARRY_LOCAL_WORKERS", "0");
    node = TestNodes.start(env, dir);
    plain = WebClient.create(node.vertx(), new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(node.httpPort()));
  }

  @AfterEach
  void stop() {
    node.stop().await();
  }

  /** The operator's command, on the same database as the running server. */
  private String invite() {
    return InviteCommand.run(env, "invite", "create", "--config", dir.resolve("absent-config.json").toString()).await();
  }

  private WebClientSession session() {
    return WebClientSession.create(WebClient.create(node.vertx(),
        new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(node.httpPort())));
  }

  private static HttpResponse<Buffer> send(WebClient client, HttpMethod method, String path, JsonObject body) {
    var request = client.request(method, path);
    return (body == null ? request.send() : request.sendJsonObject(body)).await();
  }


  /** The session's cookie, not the device cookie that sign-in sets beside it. */
  private static String sessionToken(WebClientSession session) {
    for (io.netty.handler.codec.http.cookie.Cookie cookie : session.cookieStore().get(false, "127.0.0.1", "/")) {
      if (cookie.name().equals("quarry_session")) {
        return cookie.value();
      }
    }
    throw new AssertionError("no session cookie");
  }

  private static JsonObject signUp(String email, String password, String invite) {
    return new JsonObject().put("email", email).put("password", password).put("invite", invite);
  }

  @Test
  @DisplayName("sign-up needs an unused invite; the session cookie is HttpOnly, SameSite=Lax, 7 days; sign-out ends it")
  void signUpAndOut() {
    WebClientSession alice = session();
    assertError(send(alice, HttpMethod.POST, "/api/auth/signup", signUp("alice@example.com", "correct horse", null)), 400,
        "An invite is required for new accounts");
    assertError(send(alice, HttpMethod.POST, "/api/auth/signup", signUp("alice@example.com", "correct horse", "nope")), 400,
        "Invalid or already used invite");
    String code = invite();
    HttpResponse<Buffer> created = send(alice, HttpMethod.POST, "/api/auth/signup", signUp("alice@example.com", "correct horse", code));
    assertThat(created.statusCode()).isEqualTo(201);
    String cookie = created.cookies().stream().filter(c -> c.startsWith("quarry_session=")).findFirst().orElseThrow();
    // Attribute names are case-insensitive (RFC 6265); Netty writes "HTTPOnly".
    assertThat(cookie).startsWith("quarry_session=");
    assertThat(cookie.toLowerCase()).contains("httponly", "samesite=lax", "max-age=604800", "path=/")
        .doesNotContain("secure");
    assertThat(send(alice, HttpMethod.GET, "/api/me", null).bodyAsJsonObject().getString("email"))
        .isEqualTo("alice@example.com");

    assertError(send(session(), HttpMethod.POST, "/api/auth/signup", signUp("bob@example.com", "correct horse", code)), 400,
        "Invalid or already used invite");

    assertThat(send(alice, HttpMethod.POST, "/api/auth/signout", null).statusCode()).isEqualTo(200);
    assertError(send(alice, HttpMethod.GET, "/api/me", null), 401, "Sign in first");
  }

  @Test
  @DisplayName("sign-in answers the same 401 for an unknown email and a wrong password, and opens a session otherwise")
  void signIn() {
    send(session(), HttpMethod.POST, "/api/auth/signup", signUp("carol@example.com", "long enough", invite()));
    WebClientSession carol = session();
    assertError(send(carol, HttpMethod.POST, "/api/auth/signin",
        new JsonObject().put("email", "carol@example.com").put("password", "wrong password")), 401, "Invalid email or password");
    assertError(send(carol, HttpMethod.POST, "/api/auth/signin",
        new JsonObject().put("email", "nobody@example.com").put("password", "long enough")), 401, "Invalid email or password");
    assertThat(send(carol, HttpMethod.POST, "/api/auth/signin",
        new JsonObject().put("email", "CAROL@example.com").put("password", "long enough")).statusCode()).isEqualTo(200);
    assertThat(send(carol, HttpMethod.GET, "/api/me", null).statusCode()).isEqualTo(200);
  }

  @Test
  @DisplayName("sign-up validates the email and a password of at least 8 characters, naming the field")
  void signUpValidation() {
    String code = invite();
    assertError(send(session(), HttpMethod.POST, "/api/auth/signup", signUp("not-an-email", "long enough", code)), 400,
        "Field 'email' must be an email address");
    assertError(send(session(), HttpMethod.POST, "/api/auth/signup", signUp("dan@example.com", "short", code)), 400,
        "Field 'password' must be at least 8 characters");
    for (String common : new String[] {"12345678", "password1", "PassWord1", "iloveyou2"}) {
      assertError(send(session(), HttpMethod.POST, "/api/auth/signup", signUp("dan@example.com", common, code)), 400,
          "This password is one of the most common ones; choose another");
    }
    assertThat(send(session(), HttpMethod.POST, "/api/auth/signup", signUp("dan@example.com", "k7#q2!vz", code))
        .statusCode()).isEqualTo(201);
  }

  @Test
  @DisplayName("without a session every endpoint but health and sign-in/up answers 401")
  void unauthenticated() {
    String[][] endpoints = {
        {"GET", "/api/me"}, {"GET", "/api/usage"}, {"GET", "/api/samples"}, {"GET", "/api/conversations"},
        {"POST", "/api/conversations"}, {"GET", "/api/conversations/c"}, {"PATCH", "/api/conversations/c"},
        {"DELETE", "/api/conversations/c"}, {"POST", "/api/conversations/c/messages"}, {"POST", "/api/conversations/c/stop"},
        {"POST", "/api/conversations/c/datasets"}, {"PATCH", "/api/conversations/c/datasets/d"},
        {"DELETE", "/api/conversations/c/datasets/d"}, {"POST", "/api/conversations/c/datasets/d/refresh"},
        {"POST", "/api/conversations/c/query"}, {"GET", "/api/results/r"}, {"GET", "/api/health/nodes"}};
    for (String[] endpoint : endpoints) {
      HttpResponse<Buffer> response = send(plain, HttpMethod.valueOf(endpoint[0]), endpoint[1],
          endpoint[0].equals("GET") || endpoint[0].equals("DELETE") ? null : new JsonObject().put("title", "t"));
      assertThat(response.statusCode()).as(endpoint[0] + " " + endpoint[1]).isEqualTo(401);
    }
    assertThat(send(plain, HttpMethod.GET, "/api/health", null).statusCode()).isEqualTo(200);
  }

  @Test
  @DisplayName("the WebSocket refuses an upgrade without a session (401) and a foreign Origin even with one (403)")
  void webSocket() {
    WebConnect connect = new WebConnect();
    assertThatThrownBy(() -> connect.open(null, "http://127.0.0.1:" + node.httpPort()))
        .isInstanceOf(UpgradeRejectedException.class).hasMessageContaining("401");
    WebClientSession erin = session();
    send(erin, HttpMethod.POST, "/api/auth/signup", signUp("erin@example.com", "long enough", invite()));
    String cookie = sessionToken(erin);
    assertThatThrownBy(() -> connect.open(cookie, "http://evil.example"))
        .isInstanceOf(UpgradeRejectedException.class).hasMessageContaining("403");
    assertThat(connect.open(cookie, "http://127.0.0.1:" + node.httpPort())).isNotNull();
  }

  private final class WebConnect {
    /** Held while the test runs: Vert.x closes a client nothing references (and its sockets) when it is collected. */
    private final WebSocketClient sockets = node.vertx().createWebSocketClient();

    Object open(String session, String origin) {
      WebSocketConnectOptions options = new WebSocketConnectOptions().setHost("127.0.0.1").setPort(node.httpPort())
          .setURI("/ws").setHeaders(MultiMap.caseInsensitiveMultiMap().add("Origin", origin));
      if (session != null) {
        options.addHeader("Cookie", "quarry_session=" + session);
      }
      return sockets.connect(options).await();
    }
  }

  @Test
  @DisplayName("a state-changing request from another site is refused with 403, session or not")
  void foreignOrigin() {
    WebClientSession frank = session();
    send(frank, HttpMethod.POST, "/api/auth/signup", signUp("frank@example.com", "long enough", invite()));
    HttpResponse<Buffer> forged = frank.post("/api/conversations").putHeader("Origin", "https://evil.example")
        .sendJsonObject(new JsonObject()).await();
    assertError(forged, 403, "Requests from other sites are refused");
    HttpResponse<Buffer> own = frank.post("/api/conversations").putHeader("Origin", "http://127.0.0.1:" + node.httpPort())
        .sendJsonObject(new JsonObject()).await();
    assertThat(own.statusCode()).isEqualTo(201);
  }
}
