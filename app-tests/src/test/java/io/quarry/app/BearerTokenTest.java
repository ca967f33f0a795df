package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The REST API takes the bridge's API tokens (issue 50, part): {@code Authorization: Bearer qt_…} acts for the
 * token's user with no cookie and no Origin, on a server whose people sign in with passwords, within the token's
 * scope; an unknown or revoked token is 401 saying so, from its next request.
 */
class BearerTokenTest {

  @TempDir
  static Path dir;

  static Map<String, String> env;
  static Node node;
  static WebClient plain;

  @BeforeAll
  static void start() {
    env = TestNodes.env(dir);
    env.put("QUARRY_AUTH_MODE", "password");
    env.put("QUARRY_LOCAL_WORKERS", "0");
    node = TestNodes.start(env, dir);
    plain = WebClient.create(node.vertx(), new WebClientOptions().setDefaultHost("127.0.0.1")
        .setDefaultPort(node.httpPort()));
  }

  @AfterAll
  static void stop() {
    node.stop().await();
  }

  private static String config() {
    return dir.resolve("absent-config.json").toString();
  }

  /** A user signed up with an invite, and a token of theirs: "token qt_…" then "id …". */
  private static List<String> userWithToken(String email) {
    return userWithToken(email, "chat");
  }

  private static List<String> userWithToken(String email, String scope) {
    String invite = InviteCommand.run(env, "invite", "create", "--config", config()).await();
    HttpResponse<Buffer> signedUp = plain.post("/api/auth/signup").putHeader("Origin", origin())
        .sendJsonObject(new JsonObject().put("email", email).put("password", "correct horse battery")
            .put("invite", invite)).await();
    assertThat(signedUp.statusCode()).as(signedUp.bodyAsString()).isLessThan(300);
    return TokenCommand.run(env, "token", "create", "--user", email, "--scope", scope, "--config", config()).await()
        .lines().toList();
  }

  private static String origin() {
    return "http://127.0.0.1:" + node.httpPort();
  }

  private static HttpResponse<Buffer> send(HttpMethod method, String path, String token, JsonObject body) {
    var request = plain.request(method, path);
    if (token != null) {
      request.putHeader("Authorization", "Bearer " + token);
    }
    return (body == null ? request.send() : request.sendJsonObject(body)).await();
  }

  @Test
  @DisplayName("a token's requests act for its user with no cookie and no Origin: who am I, make and list conversations")
  void actsForItsUser() {
    String token = userWithToken("ada@example.com").get(0).substring("token ".length());
    assertThat(send(HttpMethod.GET, "/api/me", token, null).bodyAsJsonObject().getString("email"))
        .isEqualTo("ada@example.com");
    HttpResponse<Buffer> made = send(HttpMethod.POST, "/api/conversations", token, new JsonObject()
        .put("title", "From a program"));
    assertThat(made.statusCode()).as(made.bodyAsString()).isEqualTo(201);
    assertThat(send(HttpMethod.GET, "/api/conversations", token, null).bodyAsJsonObject()
        .getJsonArray("conversations").getJsonObject(0).getString("title")).isEqualTo("From a program");
    assertThat(send(HttpMethod.GET, "/api/conversations", null, null).statusCode())
        .as("without it, a password server wants a session").isEqualTo(401);
  }

  @Test
  @DisplayName("a token does no more than its scope: read lists and reads but makes nothing (403 saying why), query"
      + " makes conversations and runs SQL but does not ask (403)")
  void scopes() {
    String reader = userWithToken("carol@example.com", "read").get(0).substring("token ".length());
    assertThat(send(HttpMethod.GET, "/api/conversations", reader, null).statusCode()).isEqualTo(200);
    HttpResponse<Buffer> refused = send(HttpMethod.POST, "/api/conversations", reader, new JsonObject());
    assertThat(refused.statusCode()).isEqualTo(403);
    assertThat(refused.bodyAsJsonObject().getString("error")).isEqualTo("This token's scope is read, and this needs"
        + " query");
    assertThat(send(HttpMethod.GET, "/api/conversations", reader, null).bodyAsJsonObject()
        .getJsonArray("conversations")).as("nothing was made").isEmpty();
    assertThat(send(HttpMethod.GET, "/api/schedules", reader, null).statusCode()).isEqualTo(200);
    for (HttpMethod method : List.of(HttpMethod.POST, HttpMethod.PATCH, HttpMethod.DELETE)) {
      String path = method == HttpMethod.POST ? "/api/schedules" : "/api/schedules/" + UUID.randomUUID();
      HttpResponse<Buffer> schedule = send(method, path, reader, new JsonObject().put("every", "daily"));
      assertThat(schedule.statusCode()).as(method + " " + path).isEqualTo(403);
      assertThat(schedule.bodyAsJsonObject().getString("error")).isEqualTo("This token's scope is read, and this"
          + " needs query");
    }

    String querier = userWithToken("dan@example.com", "query").get(0).substring("token ".length());
    HttpResponse<Buffer> made = send(HttpMethod.POST, "/api/conversations", querier, new JsonObject());
    assertThat(made.statusCode()).isEqualTo(201);
    String conversation = made.bodyAsJsonObject().getString("id");
    HttpResponse<Buffer> asked = send(HttpMethod.POST, "/api/conversations/" + conversation + "/messages", querier,
        new JsonObject().put("content", "How many?"));
    assertThat(asked.statusCode()).isEqualTo(403);
    assertThat(asked.bodyAsJsonObject().getString("error")).isEqualTo("This token's scope is query, and this needs"
        + " chat");
    assertThat(send(HttpMethod.GET, "/api/conversations/" + conversation, querier, null).bodyAsJsonObject()
        .getJsonArray("messages")).as("nothing was asked").isEmpty();
  }

  @Test
  @DisplayName("an unknown token, an empty one and a revoked one are 401 \"Unknown or revoked token\"; revocation"
      + " holds from the next request")
  void refusedTokens() {
    List<String> made = userWithToken("bob@example.com");
    String token = made.get(0).substring("token ".length());
    assertThat(send(HttpMethod.GET, "/api/me", token, null).statusCode()).isEqualTo(200);
    for (String wrong : new String[] {"qt_not-a-token", ""}) {
      HttpResponse<Buffer> refused = send(HttpMethod.GET, "/api/me", wrong, null);
      assertThat(refused.statusCode()).isEqualTo(401);
      assertThat(refused.bodyAsJsonObject().getString("error")).isEqualTo("Unknown or revoked token");
    }
    TokenCommand.run(env, "token", "revoke", made.get(1).substring("id ".length()), "--config", config()).await();
    HttpResponse<Buffer> revoked = send(HttpMethod.GET, "/api/me", token, null);
    assertThat(revoked.statusCode()).isEqualTo(401);
    assertThat(revoked.bodyAsJsonObject().getString("error")).isEqualTo("Unknown or revoked token");
  }
}
