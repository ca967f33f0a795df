package io.quarry.chat;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.Bus;
import io.quarry.bus.Credentials;
import io.quarry.bus.QuarryException;
import io.quarry.bus.StorageOps;
import io.quarry.bus.User;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.junit5.VertxExtension;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Keeping a real user out, replayed against fake storage on a clock the test moves: an attacker fails bob's
 * password from one loopback address after another (127.0.0.x, each a client of its own) each time his account's
 * back-off ends. Bob's browser, which signed in before and holds his device cookie, still gets in.
 */
@ExtendWith(VertxExtension.class)
class SignInLockoutTest {

  static final User BOB = new User("bob", "bob@example.com", "2026-01-01T00:00:00.000Z");
  static final User ALICE = new User("alice", "alice@example.com", "2026-01-01T00:00:00.000Z");
  static final String BOB_PASSWORD = "bob's right password";
  static final String ALICE_PASSWORD = "alice's right password";

  final AtomicLong now = new AtomicLong(1_000_000);
  final Map<String, Credentials> accounts = new HashMap<>();
  Vertx vertx;
  ChatVerticle chat;

  @BeforeEach
  void deploy(Vertx vertx) {
    this.vertx = vertx;
    Bus bus = new Bus(vertx);
    bus.serve(StorageOps.USER_CREDENTIALS, email -> {
      Credentials found = accounts.get(email.email().toLowerCase(java.util.Locale.ROOT));
      return found == null ? Future.failedFuture(QuarryException.notFound("User not found")) : Future.succeededFuture(found);
    }).completion().await();
    bus.serve(StorageOps.SESSION_CREATE, session -> Future.succeededFuture())
        .completion().await();
    chat = new ChatVerticle(now::get);
    // Few free failures per address, so that the test can reach an address's back-off too.
    vertx.deployVerticle(chat, new DeploymentOptions().setConfig(new JsonObject().put("port", 0)
        .put("authMode", Auth.PASSWORD).put("authAddressFreeFailures", 8))).await();
    for (User user : new User[] {BOB, ALICE}) {
      String hash = chat.passwords().hash(user == BOB ? BOB_PASSWORD : ALICE_PASSWORD).await();
      accounts.put(user.email(), new Credentials(user, hash));
    }
  }

  /** A client of its own on loopback address 127.0.0.{@code host}. */
  private WebClient from(int host) {
    return WebClient.create(vertx, new WebClientOptions().setLocalAddress("127.0.0." + host)
        .setDefaultHost("127.0.0.1").setDefaultPort(chat.port()));
  }

  private HttpResponse<Buffer> signIn(WebClient client, String deviceCookie, String email, String password) {
    var request = client.post("/api/auth/signin");
    if (deviceCookie != null) {
      request.putHeader("Cookie", Devices.COOKIE + "=" + deviceCookie);
    }
    return request.sendJsonObject(new JsonObject().put("email", email).put("password", password)).await();
  }

  /** The device cookie a successful sign-in set, checked for how it is kept. */
  private static String deviceCookie(HttpResponse<Buffer> signedIn) {
    assertThat(signedIn.statusCode()).isEqualTo(200);
    String header = signedIn.cookies().stream().filter(c -> c.startsWith(Devices.COOKIE + "=")).findFirst().orElseThrow();
    assertThat(header.toLowerCase(java.util.Locale.ROOT)).contains("; httponly", "; samesite=lax", "; max-age=31536000",
        "; path=/").doesNotContain("secure");
    return header.substring(Devices.COOKIE.length() + 1, header.indexOf(';'));
  }

  private static long retryAfterMs(HttpResponse<Buffer> refused) {
    assertThat(refused.statusCode()).isEqualTo(429);
    return Long.parseLong(refused.getHeader("Retry-After")) * 1_000;
  }

  @Test
  @DisplayName("an attacker rotating addresses keeps bob's account backed off, but bob's browser with its device"
      + " cookie signs in every time; a fresh browser, alice's cookie or an altered cookie get 429")
  void rotatingAttackerCannotLockOutBobsBrowser() {
    WebClient bobsAddress = from(1);
    String bobs = deviceCookie(signIn(bobsAddress, null, BOB.email(), BOB_PASSWORD));
    String alices = deviceCookie(signIn(from(50), null, ALICE.email(), ALICE_PASSWORD));
    WebClient attacker = from(2);
    for (int i = 1; i <= 6; i++) {
      assertThat(signIn(attacker, null, BOB.email(), "guess " + i).statusCode()).isEqualTo(401);
    }
    long wait = retryAfterMs(signIn(attacker, null, BOB.email(), "guess 7"));
    for (int round = 1; round <= 4; round++) {
      now.addAndGet(wait);
      WebClient next = from(2 + round);
      assertThat(signIn(next, null, BOB.email(), "guess from a new address").statusCode()).isEqualTo(401);
      wait = retryAfterMs(signIn(bobsAddress, null, BOB.email(), BOB_PASSWORD));
      assertThat(retryAfterMs(signIn(bobsAddress, alices, BOB.email(), BOB_PASSWORD))).as("alice's cookie").isEqualTo(wait);
      for (String altered : altered(bobs)) {
        assertThat(retryAfterMs(signIn(bobsAddress, altered, BOB.email(), BOB_PASSWORD))).as(altered).isEqualTo(wait);
      }
      bobs = deviceCookie(signIn(bobsAddress, bobs, BOB.email().toUpperCase(java.util.Locale.ROOT), BOB_PASSWORD));
    }
    assertThat(wait).as("the account's back-off kept growing").isEqualTo(16_000);
  }

  /** Bob's cookie with its device id or its HMAC changed by one character, or with either part alone. */
  private static String[] altered(String cookie) {
    int dot = cookie.indexOf('.');
    String id = cookie.substring(0, dot);
    String mac = cookie.substring(dot + 1);
    return new String[] {flip(id) + "." + mac, id + "." + flip(mac), id, "." + mac, id + "." + mac + "."};
  }

  private static String flip(String s) {
    return (s.charAt(0) == 'A' ? 'B' : 'A') + s.substring(1);
  }

  @Test
  @DisplayName("a device cookie gives no free guesses: its wrong passwords back off per device, and its address's"
      + " back-off holds it too; neither holds bob's account")
  void deviceCookieStillBacksOff() {
    String bobs = deviceCookie(signIn(from(1), null, BOB.email(), BOB_PASSWORD));
    WebClient thief = from(9);
    for (int i = 1; i <= 6; i++) {
      assertThat(signIn(thief, bobs, BOB.email(), "guess " + i).statusCode()).isEqualTo(401);
    }
    retryAfterMs(signIn(thief, bobs, BOB.email(), BOB_PASSWORD));
    retryAfterMs(signIn(from(10), bobs, BOB.email(), BOB_PASSWORD));
    assertThat(signIn(from(11), null, BOB.email(), BOB_PASSWORD).statusCode()).as("the account is not held back")
        .isEqualTo(200);

    String fresh = deviceCookie(signIn(from(1), null, BOB.email(), BOB_PASSWORD));
    WebClient guesser = from(12);
    for (int i = 1; i <= 9; i++) {
      assertThat(signIn(guesser, null, "guess" + i + "@example.com", "password").statusCode()).isEqualTo(401);
    }
    retryAfterMs(signIn(guesser, fresh, BOB.email(), BOB_PASSWORD));
  }
}
