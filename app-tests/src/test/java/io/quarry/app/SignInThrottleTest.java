package io.quarry.app;

import static io.quarry.app.HttpAssertions.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Password and invite guessing, end to end: back-off per account and per address, 429 with Retry-After. */
class SignInThrottleTest {

  static final String BAD = "Invalid email or password";
  /** The first back-off, in seconds. */
  static final long BACKOFF_S = 10;

  @TempDir
  Path dir;

  Map<String, String> env;
  Node node;
  WebClient client;

  @BeforeEach
  void start() {
    env = TestNodes.env(dir);
    env.put("QUARRY_AUTH_MODE", "password");
    // Signing in runs no SQL: a node without worker processes (nor their private cluster) starts in a fraction of the time.
    env.put("QUARRY_LOCAL_WORKERS", "0");
    env.put("QUARRY_CHAT_AUTH_ACCOUNT_FREE_FAILURES", "3");
    env.put("QUARRY_CHAT_AUTH_ADDRESS_FREE_FAILURES", "12");
    // Long enough that the next request surely comes while it lasts: an attempt counts as failed as it starts, so its
    // own Argon2 hash runs in the back-off it sets, and on a loaded machine (two cores, five test JVMs) that hash once
    // outlasted a back-off of two seconds.
    env.put("QUARRY_CHAT_AUTH_BACKOFF_BASE_MS", String.valueOf(BACKOFF_S * 1000));
    node = TestNodes.start(env, dir);
    client = WebClient.create(node.vertx(), new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(node.httpPort()));
    String invite = InviteCommand.run(env, "invite", "create", "--config", dir.resolve("absent.json").toString()).await();
    assertThat(post("/api/auth/signup", new JsonObject().put("email", "dana@example.com").put("password", "right password")
        .put("invite", invite)).statusCode()).isEqualTo(201);
  }

  @AfterEach
  void stop() {
    node.stop().await();
  }

  private HttpResponse<Buffer> post(String path, JsonObject body) {
    return client.post(path).sendJsonObject(body).await();
  }

  private HttpResponse<Buffer> signIn(String email, String password) {
    return post("/api/auth/signin", new JsonObject().put("email", email).put("password", password));
  }

  /** Refused with the seconds left of the first back-off, in the header and in words. */
  private static void assertThrottled(HttpResponse<Buffer> response, String what) {
    assertThat(response.getHeader("Retry-After")).as("Retry-After of %s", response.bodyAsString()).isNotNull();
    long seconds = Long.parseLong(response.getHeader("Retry-After"));
    assertThat(seconds).isBetween(1L, BACKOFF_S);
    assertError(response, 429, "Too many failed " + what + " attempts; try again in " + seconds
        + (seconds == 1 ? " second" : " seconds"));
  }

  @Test
  @DisplayName("past the free failures an account backs off: 429 with Retry-After even for the right password, the same for an unknown account")
  void accountBacksOff() throws Exception {
    long retryAfter = 0;
    for (String email : new String[] {"dana@example.com", "nobody@example.com"}) {
      for (int i = 1; i <= 4; i++) {
        assertError(signIn(email, "wrong password " + i), 401, BAD);
      }
      assertThrottled(signIn(email, "right password"), "sign-in");
      if (retryAfter == 0) {
        // Asked at once: nobody's five sign-ins, each a password hash, can outlast dana's back-off on a busy machine.
        retryAfter = Long.parseLong(signIn("DANA@example.com", "right password").getHeader("Retry-After"));
      }
    }
    node.vertx().timer(retryAfter * 1_000).await();
    assertThat(signIn("dana@example.com", "right password").statusCode()).isEqualTo(200);
    for (int i = 1; i <= 4; i++) {
      assertError(signIn("dana@example.com", "wrong again " + i), 401, BAD);
    }
    assertThat(signIn("dana@example.com", "wrong again").statusCode()).as("a success starts the count afresh").isEqualTo(429);
  }

  @Test
  @DisplayName("wrong passwords for dana from other addresses (127.0.0.2-5) back her account off, but not her"
      + " browser: the device cookie of its earlier sign-in gets her in, while a browser without it waits")
  void deviceCookieGetsTheOwnerIn() {
    HttpResponse<Buffer> earlier = signIn("dana@example.com", "right password");
    assertThat(earlier.statusCode()).isEqualTo(200);
    String device = earlier.cookies().stream().filter(c -> c.startsWith("quarry_device=")).findFirst().orElseThrow()
        .split(";")[0];
    for (int host = 2; host <= 5; host++) {
      WebClient attacker = WebClient.create(node.vertx(), new WebClientOptions().setLocalAddress("127.0.0." + host)
          .setDefaultHost("127.0.0.1").setDefaultPort(node.httpPort()));
      assertError(attacker.post("/api/auth/signin").sendJsonObject(new JsonObject().put("email", "dana@example.com")
          .put("password", "guess " + host)).await(), 401, BAD);
    }
    HttpResponse<Buffer> owner = client.post("/api/auth/signin").putHeader("Cookie", device)
        .sendJsonObject(new JsonObject().put("email", "dana@example.com").put("password", "right password")).await();
    assertThat(owner.statusCode()).isEqualTo(200);
    assertThrottled(signIn("dana@example.com", "right password"), "sign-in");
  }

  @Test
  @DisplayName("one address guessing across accounts backs off too, at its own limit")
  void addressBacksOff() {
    for (int i = 1; i <= 13; i++) {
      assertError(signIn("guess" + i + "@example.com", "password " + i), 401, BAD);
    }
    assertThrottled(signIn("dana@example.com", "right password"), "sign-in");
  }

  @Test
  @DisplayName("invite guessing on sign-up backs off per address")
  void inviteGuessing() {
    for (int i = 1; i <= 13; i++) {
      assertError(post("/api/auth/signup", new JsonObject().put("email", "eve" + i + "@example.com")
          .put("password", "long enough").put("invite", "guess-" + i)), 400, "Invalid or already used invite");
    }
    assertThrottled(post("/api/auth/signup", new JsonObject().put("email", "eve@example.com").put("password", "long enough")
        .put("invite", "guess-10")), "sign-up");
  }
}
