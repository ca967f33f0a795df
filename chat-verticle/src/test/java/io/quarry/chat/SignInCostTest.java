package io.quarry.chat;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.Bus;
import io.quarry.bus.Credentials;
import io.quarry.bus.QuarryException;
import io.quarry.bus.StorageClient;
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
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What each sign-in and sign-up path costs in password hashing, against fake storage consumers: a guessed
 * invite costs none, and an unknown email costs exactly what a wrong password does.
 */
@ExtendWith(VertxExtension.class)
class SignInCostTest {

  static final User ANN = new User("ann", "ann@example.com", "2026-01-01T00:00:00.000Z");

  ChatVerticle chat;
  WebClient client;
  final AtomicInteger created = new AtomicInteger();
  String annHash;

  @BeforeEach
  void deploy(Vertx vertx) {
    Bus bus = new Bus(vertx);
    bus.serve(StorageOps.INVITE_CHECK, invite -> Future.succeededFuture(
        new StorageOps.InviteState(invite.code().equals("good")))).completion().await();
    bus.serve(StorageOps.USER_CREATE, user -> {
      created.incrementAndGet();
      return Future.failedFuture(QuarryException.badRequest(StorageClient.INVITE_REFUSED));
    }).completion().await();
    bus.serve(StorageOps.USER_CREDENTIALS, email -> email.email().equals(ANN.email())
        ? Future.succeededFuture(new Credentials(ANN, annHash))
        : Future.failedFuture(QuarryException.notFound("User not found"))).completion().await();
    chat = new ChatVerticle();
    vertx.deployVerticle(chat, new DeploymentOptions().setConfig(new JsonObject().put("port", 0)
        .put("authMode", Auth.PASSWORD))).await();
    annHash = chat.passwords().hash("correct horse").await();
    client = WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(chat.port()));
  }

  private HttpResponse<Buffer> post(String path, JsonObject body) {
    return client.post(path).sendJsonObject(body).await();
  }

  @Test
  @DisplayName("a guessed invite is refused before any hashing; a usable one is hashed and then checked by storage")
  void inviteFirst() {
    long before = chat.passwords().computed();
    HttpResponse<Buffer> guessed = post("/api/auth/signup", new JsonObject().put("email", "eve@example.com")
        .put("password", "long enough").put("invite", "guessed"));
    assertThat(guessed.statusCode()).isEqualTo(400);
    assertThat(guessed.bodyAsJsonObject().getString("error")).isEqualTo(StorageClient.INVITE_REFUSED);
    assertThat(chat.passwords().computed()).isEqualTo(before);
    assertThat(created).hasValue(0);

    HttpResponse<Buffer> taken = post("/api/auth/signup", new JsonObject().put("email", ANN.email())
        .put("password", "long enough").put("invite", "good"));
    assertThat(taken.bodyAsJsonObject().getString("error")).isEqualTo(StorageClient.INVITE_REFUSED);
    assertThat(chat.passwords().computed()).isEqualTo(before + 1);
    assertThat(created).hasValue(1);
  }

  @Test
  @DisplayName("an unknown email costs one hash, exactly like a wrong password, and gets the same 401")
  void unknownEmailCostsTheSame() {
    long before = chat.passwords().computed();
    HttpResponse<Buffer> unknown = post("/api/auth/signin", new JsonObject().put("email", "nobody@example.com")
        .put("password", "correct horse"));
    assertThat(chat.passwords().computed()).isEqualTo(before + 1);
    HttpResponse<Buffer> wrong = post("/api/auth/signin", new JsonObject().put("email", ANN.email())
        .put("password", "wrong horse"));
    assertThat(chat.passwords().computed()).isEqualTo(before + 2);
    assertThat(unknown.statusCode()).isEqualTo(401);
    assertThat(unknown.bodyAsString()).isEqualTo(wrong.bodyAsString());
  }
}
