package io.quarry.dataset;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.Cadence;
import io.quarry.bus.Schedule;
import io.quarry.bus.ScheduleRun;
import io.quarry.bus.net.AddressPolicy;
import io.quarry.bus.net.OutboundHttp;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A scheduled run's webhook against a server on loopback: held to the datasets' address policy (with private networks
 * disallowed, no loopback alias reaches it), signed, and its redirects not followed.
 */
@ExtendWith(VertxExtension.class)
class WebhooksTest {

  private HttpServer server;
  private final List<String> paths = new CopyOnWriteArrayList<>();
  private OutboundHttp http;

  @BeforeEach
  void start(Vertx vertx) {
    server = vertx.createHttpServer().requestHandler(request -> request.body().onSuccess(body -> {
      paths.add(request.path() + " " + request.getHeader(Webhooks.SIGNATURE) + " " + request.getHeader(
          Webhooks.TIMESTAMP) + " " + body);
      if (request.path().equals("/moved")) {
        request.response().setStatusCode(302).putHeader("Location", "/hook").end();
      } else {
        request.response().setStatusCode(204).end();
      }
    })).listen(0, "127.0.0.1").await();
  }

  @AfterEach
  void stop() {
    if (http != null) {
      http.close().await();
    }
  }

  private Webhooks webhooks(Vertx vertx, boolean allowPrivate) {
    http = new OutboundHttp(vertx, new AddressPolicy(allowPrivate, Set.of()), 2_000, "", 2);
    return new Webhooks(vertx, http, 2_000);
  }

  private static Schedule schedule(String url) {
    return new Schedule("s1", "u1", Schedule.RESULT, "r1", "c1", "SELECT 1", Cadence.of("daily", null, null, null),
        url, "whsec_test", "2026-03-02T08:00:00.000Z", false, null);
  }

  private static ScheduleRun run() {
    return new ScheduleRun("run-1", "s1", "2026-03-02T08:00:00.000Z", ScheduleRun.OK, null, "res-1", null, null,
        "3 rows added, total 1,204 → 1,377", new JsonObject().put("added", 3), false, ScheduleRun.PENDING, 0, null,
        null, null, "2026-03-02T08:00:01.000Z");
  }

  @Test
  @DisplayName("with private networks disallowed, 127.1, [::ffff:127.0.0.1], localhost and 127.0.0.1 are refused for"
      + " good and the server hears nothing")
  void loopbackAliasesRefused(Vertx vertx) {
    Webhooks hooks = webhooks(vertx, false);
    int port = server.actualPort();
    for (String host : List.of("127.1", "[::ffff:127.0.0.1]", "localhost", "127.0.0.1", "0x7f.1")) {
      Webhooks.Attempt attempt = hooks.send(schedule("http://" + host + ":" + port + "/hook"), run(),
          Instant.parse("2026-03-02T08:00:02Z")).await();
      assertThat(attempt.outcome()).as(host).isEqualTo(Webhooks.Outcome.REFUSED);
      assertThat(attempt.error()).as(host).contains("private or local network address");
    }
    assertThat(paths).isEmpty();
  }

  @Test
  @DisplayName("allowed, the POST carries the run and 'sha256=' + HMAC-SHA256 of '<timestamp>.<body>' under the secret;"
      + " a redirect is not followed (its status is the answer)")
  void signedAndNotRedirected(Vertx vertx) {
    Webhooks hooks = webhooks(vertx, true);
    String base = "http://127.0.0.1:" + server.actualPort();
    Instant now = Instant.parse("2026-03-02T08:00:02Z");
    assertThat(hooks.send(schedule(base + "/hook"), run(), now).await().outcome())
        .isEqualTo(Webhooks.Outcome.DELIVERED);
    String body = Webhooks.body(schedule(base + "/hook"), run()).encode();
    assertThat(paths).containsExactly("/hook " + Webhooks.signature("whsec_test", now.getEpochSecond(), body) + " "
        + now.getEpochSecond() + " " + body);
    assertThat(new JsonObject(body).getString("summary")).isEqualTo("3 rows added, total 1,204 → 1,377");
    assertThat(Webhooks.signature("whsec_test", 1772438402L, "{}"))
        .isEqualTo("sha256=" + hmac("whsec_test", "1772438402.{}"));

    Webhooks.Attempt moved = hooks.send(schedule(base + "/moved"), run(), now).await();
    assertThat(moved.outcome()).isEqualTo(Webhooks.Outcome.FAILED);
    assertThat(moved.error()).isEqualTo("The webhook answered HTTP 302");
    assertThat(paths).hasSize(2);
  }

  private static String hmac(String key, String text) {
    try {
      javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
      mac.init(new javax.crypto.spec.SecretKeySpec(key.getBytes(java.nio.charset.StandardCharsets.UTF_8),
          "HmacSHA256"));
      return java.util.HexFormat.of().formatHex(mac.doFinal(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    } catch (java.security.GeneralSecurityException e) {
      throw new AssertionError(e);
    }
  }
}
