package io.quarry.chat;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.Bus;
import io.quarry.bus.Sha256;
import io.quarry.bus.Shares;
import io.quarry.bus.Shares.NewShare;
import io.quarry.bus.Shares.Opened;
import io.quarry.bus.Shares.Share;
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
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Share links at the HTTP edge alone (issue 52, item 1), against fake storage consumers: the operator's ceiling
 * ({@code share.audience}), the request's limits at and past each, only the token's hash leaving the edge, and the
 * headers of what a link opens.
 */
@ExtendWith(VertxExtension.class)
class ShareEdgeTest {

  static final User LOCAL = new User("local-user", null, "2026-01-01T00:00:00.000Z");

  Vertx vertx;
  /** What storage was asked to make. */
  final List<NewShare> made = new ArrayList<>();
  /** What storage was asked to open, by hash. */
  final List<String> opened = new ArrayList<>();

  @BeforeEach
  void fakes(Vertx vertx) {
    this.vertx = vertx;
    Bus bus = new Bus(vertx);
    bus.serve(StorageOps.USER_LOCAL, none -> Future.succeededFuture(LOCAL)).completion().await();
    bus.serve(StorageOps.SHARE_CREATE, r -> {
      made.add(r);
      return Future.succeededFuture(new Share(r.id(), r.kind(), r.conversationId(), r.messageId(), r.boardId(),
          r.audience(), r.displayName(), "Fuel", "2026-01-01T00:00:00.000Z", r.expiresAt(), null, "2026-01-01T00:00:00.000Z"));
    }).completion().await();
    bus.serve(StorageOps.SHARE_OPEN, r -> {
      opened.add(r.tokenHash());
      return Future.succeededFuture(new Opened(new Share("s1", Shares.CONVERSATION, "c1", null, null, Shares.ANYONE,
          "Ada", "Fuel", "2026-01-01T00:00:00.000Z", null, null, "2026-01-01T00:00:00.000Z"), "local-user"));
    }).completion().await();
    bus.serve(StorageOps.MESSAGE_LIST, r -> Future.succeededFuture(List.of())).completion().await();
    bus.serve(StorageOps.DATASET_LIST, r -> Future.succeededFuture(List.of())).completion().await();
  }

  private WebClient deploy(String audience, String mode) {
    ChatVerticle chat = new ChatVerticle();
    vertx.deployVerticle(chat, new DeploymentOptions().setConfig(new JsonObject().put("port", 0).put("authMode", mode)
        .put("share", new JsonObject().put("audience", audience)))).await();
    return WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(chat.port()));
  }

  private static HttpResponse<Buffer> create(WebClient client, JsonObject body) {
    return client.post("/api/shares").sendJsonObject(body).await();
  }

  private static JsonObject share() {
    return new JsonObject().put("conversation_id", "c1");
  }

  private static void assertError(HttpResponse<Buffer> response, int status, String message) {
    assertThat(response.statusCode()).as(response.bodyAsString()).isEqualTo(status);
    assertThat(response.bodyAsJsonObject().getString("error")).isEqualTo(message);
  }

  @Test
  @DisplayName("a link's token (qs_, 256 random bits) is answered once and only its SHA-256 reaches storage")
  void onlyTheHash() {
    WebClient client = deploy(Shares.ANYONE, Auth.LOCAL);
    JsonObject first = create(client, share()).bodyAsJsonObject();
    JsonObject second = create(client, share()).bodyAsJsonObject();
    String token = first.getString("token");
    assertThat(token).matches("qs_[A-Za-z0-9_-]{43}").isNotEqualTo(second.getString("token"));
    assertThat(first.getString("url")).isEqualTo("/s/" + token);
    assertThat(made.get(0).tokenHash()).isEqualTo(Sha256.hex(token));
    assertThat(made.get(0).toString()).doesNotContain(token);
    assertThat(made.get(0).audience()).as("the least exposed when none is asked").isEqualTo(Shares.USERS);
    assertThat(made.get(0).displayName()).isEqualTo(Shares.DEFAULT_NAME);
    assertThat(made.get(0).kind()).isEqualTo(Shares.CONVERSATION);
  }

  @Test
  @DisplayName("share.audience=users: a link for anyone is 400 saying what is allowed; a link for users is made")
  void ceilingUsers() {
    WebClient client = deploy(Shares.USERS, Auth.LOCAL);
    assertError(create(client, share().put("audience", "anyone")), 400, "This Quarry lets links open only for its"
        + " signed-in users (share.audience=users): choose the audience 'users'");
    assertThat(create(client, share().put("audience", "users")).statusCode()).isEqualTo(201);
    assertError(create(client, share().put("audience", "everyone")), 400, "Field 'audience' must be users or anyone");
    assertThat(made).hasSize(1);
    assertThat(client.get("/api/me").send().await().bodyAsJsonObject().getString("share_audience"))
        .as("what the page's dialog offers within").isEqualTo("users");
  }

  @Test
  @DisplayName("share.audience=off: making a link is 403 saying so, and a link made before opens nothing (404)")
  void ceilingOff() {
    WebClient client = deploy(Shares.OFF, Auth.LOCAL);
    assertError(create(client, share()), 403, "Sharing is turned off on this Quarry (share.audience=off)");
    assertError(client.get("/api/s/qs_x").send().await(), 404, Shares.NOT_FOUND);
    assertThat(made).isEmpty();
    assertThat(client.get("/api/me").send().await().bodyAsJsonObject().getString("share_audience")).isEqualTo("off");
  }

  @Test
  @DisplayName("share.audience must be anyone, users or off: another value stops the web role from starting")
  void ceilingChecked() {
    Future<String> deployed = vertx.deployVerticle(new ChatVerticle(), new DeploymentOptions().setConfig(
        new JsonObject().put("port", 0).put("share", new JsonObject().put("audience", "everyone"))));
    assertThat(deployed.transform(Future::succeededFuture).await().cause().getMessage())
        .isEqualTo("share.audience must be 'anyone', 'users' or 'off', got 'everyone'");
  }

  @Test
  @DisplayName("display_name: 100 characters are kept, 101 are 400; expires_in_days: 1 and 365 are made, 0 and 366 are 400")
  void limits() {
    WebClient client = deploy(Shares.ANYONE, Auth.LOCAL);
    assertThat(create(client, share().put("display_name", "n".repeat(100))).statusCode()).isEqualTo(201);
    assertError(create(client, share().put("display_name", "n".repeat(101))), 400,
        "Field 'display_name' must be at most 100 characters");
    assertThat(create(client, share().put("expires_in_days", 1)).statusCode()).isEqualTo(201);
    assertThat(create(client, share().put("expires_in_days", 365)).statusCode()).isEqualTo(201);
    for (int days : new int[] {0, 366}) {
      assertError(create(client, share().put("expires_in_days", days)), 400,
          "Field 'expires_in_days' must be a whole number from 1 to 365");
    }
    assertError(create(client, new JsonObject()), 400, "Field 'conversation_id' is required");
    assertThat(made).hasSize(3);
    assertThat(made.get(0).displayName()).isEqualTo("n".repeat(100));
    assertThat(made.get(2).expiresAt()).isNotNull();
  }

  @Test
  @DisplayName("what a link opens says Referrer-Policy: no-referrer, noindex and no-store, page and JSON alike")
  void headers() {
    WebClient client = deploy(Shares.ANYONE, Auth.PASSWORD);
    for (String path : List.of("/s/qs_abc", "/api/s/qs_abc")) {
      HttpResponse<Buffer> got = client.get(path).send().await();
      assertThat(got.statusCode()).as(path).isEqualTo(200);
      assertThat(got.getHeader("Referrer-Policy")).as(path).isEqualTo("no-referrer");
      assertThat(got.getHeader("X-Robots-Tag")).as(path).contains("noindex");
      assertThat(got.getHeader("Cache-Control")).as(path).isEqualTo("no-store");
      assertThat(got.getHeader("Content-Security-Policy")).as(path).contains("script-src 'self'");
    }
    assertThat(client.get("/s/qs_abc").send().await().bodyAsString()).contains("/js/shared.js")
        .contains("noindex");
    assertThat(opened).containsExactly(Sha256.hex("qs_abc"));
  }

  @Test
  @DisplayName("password mode: a link for anyone opens without a session; with the ceiling lowered to users it asks to sign in (401)")
  void anonymous() {
    WebClient open = deploy(Shares.ANYONE, Auth.PASSWORD);
    JsonObject view = open.get("/api/s/qs_abc").send().await().bodyAsJsonObject();
    assertThat(view.getString("display_name")).isEqualTo("Ada");
    assertThat(view.encode()).doesNotContain("local-user").doesNotContain("c1");
    WebClient users = deploy(Shares.USERS, Auth.PASSWORD);
    assertError(users.get("/api/s/qs_abc").send().await(), 401, SharedView.SIGN_IN);
  }
}
