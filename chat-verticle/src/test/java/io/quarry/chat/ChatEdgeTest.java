package io.quarry.chat;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.Bus;
import io.quarry.bus.QuarryException;
import io.quarry.bus.StorageOps;
import io.quarry.bus.User;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The HTTP edge alone, against fake storage consumers bound to the contract's addresses. */
@ExtendWith(VertxExtension.class)
class ChatEdgeTest {

  static final User LOCAL = new User("local-user", null, "2026-01-01T00:00:00.000Z");

  WebClient client;

  @BeforeEach
  void deploy(Vertx vertx) {
    new Bus(vertx).serve(StorageOps.USER_LOCAL, none -> Future.succeededFuture(LOCAL))
        .completion().await();
    ChatVerticle chat = new ChatVerticle();
    vertx.deployVerticle(chat, new DeploymentOptions().setConfig(new JsonObject()
        .put("port", 0).put("maxBodyBytes", 4096)
        .put("node", new JsonObject().put("id", "n1").put("version", "9.9").put("roles", new JsonArray().add("web")))))
        .await();
    client = WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(chat.port()));
  }

  private HttpResponse<Buffer> send(HttpMethod method, String path, String body) {
    return send(method, path, body, "application/json");
  }

  private HttpResponse<Buffer> send(HttpMethod method, String path, String body, String contentType) {
    var request = client.request(method, path);
    if (contentType != null) {
      request.putHeader("Content-Type", contentType);
    }
    return (body == null ? request.send() : request.sendBuffer(Buffer.buffer(body))).await();
  }

  private static void assertError(HttpResponse<Buffer> response, int status, String message) {
    assertThat(response.statusCode()).isEqualTo(status);
    assertThat(response.getHeader("content-type")).isEqualTo("application/json");
    JsonObject body = response.bodyAsJsonObject();
    assertThat(body.getString("error")).isEqualTo(message);
    assertThat(body.fieldNames()).isSubsetOf("error", "details");
    assertThat(response.bodyAsString()).doesNotContain("Exception").doesNotContain("\tat ");
  }

  @Test
  @DisplayName("health reports status, version, roles and the members' roles, naming no node; a user sees the nodes")
  void health() {
    HttpResponse<Buffer> response = send(HttpMethod.GET, "/api/health", null);
    JsonObject health = response.bodyAsJsonObject();
    assertThat(health.getString("status")).isEqualTo("ok");
    assertThat(health.getString("version")).isEqualTo("9.9");
    assertThat(health.getJsonArray("roles")).containsExactly("web");
    assertThat(health.getJsonArray("cluster_members").getJsonObject(0)).isEqualTo(new JsonObject().put("roles",
        new JsonArray().add("web")));
    assertThat(response.bodyAsString()).doesNotContain("n1");
    JsonObject nodes = send(HttpMethod.GET, "/api/health/nodes", null).bodyAsJsonObject();
    assertThat(nodes.getJsonArray("cluster_members").getJsonObject(0).getString("id")).isEqualTo("n1");
  }

  @Test
  @DisplayName("a body that is not declared JSON gets 415 before it is read; JSON with a charset and bodiless posts pass")
  void jsonBodiesOnly() {
    String json = "{\"title\":";
    for (String type : new String[] {"text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
        "application/jsonp", null}) {
      HttpResponse<Buffer> refused = send(HttpMethod.POST, "/api/conversations", json, type);
      assertError(refused, 415, "Request body must be JSON: send it with Content-Type: application/json");
      assertThat(refused.bodyAsJsonObject().getString("details")).as(type).contains(type == null ? "no Content-Type" : type);
    }
    assertError(send(HttpMethod.PATCH, "/api/conversations/abc", "{}", "text/plain"), 415,
        "Request body must be JSON: send it with Content-Type: application/json");
    for (String type : new String[] {"application/json; charset=utf-8", "Application/JSON"}) {
      assertError(send(HttpMethod.POST, "/api/conversations", json, type), 400, "Request body is not valid JSON");
    }
    assertThat(send(HttpMethod.POST, "/api/auth/signout", null, null).statusCode()).isNotEqualTo(415);
  }

  @Test
  @DisplayName("every response carries the CSP and the other security headers; HSTS only over https (here, a proxy's)")
  void securityHeaders() {
    for (String path : new String[] {"/", "/js/app.js", "/api/me", "/api/nothing-here"}) {
      HttpResponse<Buffer> response = send(HttpMethod.GET, path, null);
      String csp = response.getHeader("Content-Security-Policy");
      assertThat(csp).as(path).contains("default-src 'self'").contains("script-src 'self';")
          .contains("frame-ancestors 'none'").contains("object-src 'none'").contains("img-src 'self' data:")
          .contains("form-action 'self'").doesNotContain("unsafe-eval");
      assertThat(response.getHeader("X-Content-Type-Options")).as(path).isEqualTo("nosniff");
      assertThat(response.getHeader("Referrer-Policy")).as(path).isEqualTo("same-origin");
      assertThat(response.getHeader("Strict-Transport-Security")).as(path).isNull();
    }
    HttpResponse<Buffer> proxied = client.get("/").putHeader("X-Forwarded-Proto", "https").send().await();
    assertThat(proxied.getHeader("Strict-Transport-Security")).isEqualTo("max-age=31536000; includeSubDomains");
  }

  @Test
  @DisplayName("in local mode every request is the local user")
  void me() {
    JsonObject me = send(HttpMethod.GET, "/api/me", null).bodyAsJsonObject();
    assertThat(me.getString("id")).isEqualTo(LOCAL.id());
    assertThat(me.getString("auth_mode")).isEqualTo("local");
  }

  @Test
  @DisplayName("storage's not-found and conflict become 404 and 409 with storage's message")
  void domainFailures(Vertx vertx) {
    new Bus(vertx).serve(StorageOps.CONVERSATION_GET,
        ref -> Future.failedFuture(QuarryException.notFound("Conversation not found"))).completion().await();
    new Bus(vertx).serve(StorageOps.CONVERSATION_RENAME,
        rename -> Future.failedFuture(QuarryException.conflict("Busy elsewhere"))).completion().await();
    assertError(send(HttpMethod.GET, "/api/conversations/nope", null), 404, "Conversation not found");
    assertError(send(HttpMethod.PATCH, "/api/conversations/x", "{\"title\":\"t\"}"), 409, "Busy elsewhere");
  }

  @Test
  @DisplayName("a storage bug reaches the client as 500 'Internal error' without a stack trace")
  void internalFailure(Vertx vertx) {
    new Bus(vertx).serve(StorageOps.CONVERSATION_LIST,
        user -> Future.failedFuture(new IllegalStateException("secret detail at line 42"))).completion().await();
    assertError(send(HttpMethod.GET, "/api/conversations", null), 500, "Internal error");
  }

  @Test
  @DisplayName("with no storage on the bus the API answers 503")
  void noStorage() {
    assertError(send(HttpMethod.GET, "/api/conversations", null), 503, "Service unavailable, try again shortly");
  }

  @Test
  @DisplayName("malformed bodies get 400 with a message that names the problem or the field")
  void malformedBodies() {
    assertError(send(HttpMethod.POST, "/api/conversations", "{\"title\":"), 400, "Request body is not valid JSON");
    assertError(send(HttpMethod.POST, "/api/conversations", "[1,2]"), 400, "Request body must be a JSON object");
    assertError(send(HttpMethod.POST, "/api/conversations", "{\"title\":5}"), 400, "Field 'title' must be a string");
    assertError(send(HttpMethod.POST, "/api/conversations", "{\"title\":\"" + "x".repeat(201) + "\"}"), 400,
        "Field 'title' must be at most 200 characters");
    assertError(send(HttpMethod.PATCH, "/api/conversations/abc", "{}"), 400, "Field 'title' is required");
    assertError(send(HttpMethod.PATCH, "/api/conversations/abc", "{\"title\":\"   \"}"), 400, "Field 'title' is required");
  }

  @Test
  @DisplayName("a body over the size limit is refused with 413")
  void oversizedBody() {
    assertError(send(HttpMethod.POST, "/api/conversations", "{\"title\":\"" + "x".repeat(5000) + "\"}"), 413,
        "Request body is too large");
  }

  @Test
  @DisplayName("a wrong method gets 405 naming the allowed ones; an unknown API path gets 404")
  void methodsAndPaths() {
    HttpResponse<Buffer> put = send(HttpMethod.PUT, "/api/conversations", "{}");
    assertError(put, 405, "Method PUT is not allowed on /api/conversations; use GET, POST");
    assertThat(put.getHeader("Allow")).isEqualTo("GET, POST");
    assertError(send(HttpMethod.POST, "/api/conversations/abc", "{}"), 405,
        "Method POST is not allowed on /api/conversations/abc; use DELETE, GET, PATCH");
    assertError(send(HttpMethod.DELETE, "/api/health", null), 405, "Method DELETE is not allowed on /api/health; use GET");
    assertError(send(HttpMethod.GET, "/api/nothing-here", null), 404, "Not found");
  }

  @Test
  @DisplayName("the web UI is served from the root")
  void staticRoot() {
    HttpResponse<Buffer> page = send(HttpMethod.GET, "/", null);
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.bodyAsString()).contains("<title>Quarry</title>");
  }

  @Test
  @DisplayName("a conversation's address /c/<uuid> serves the page, with the security headers, whose assets load from /;"
      + " anything else under /c/ is 404")
  void conversationAddress() {
    HttpResponse<Buffer> page = send(HttpMethod.GET, "/c/0f8fad5b-d9cb-469f-a165-70867728950e", null);
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.getHeader("content-type")).startsWith("text/html");
    assertThat(page.getHeader("Content-Security-Policy")).contains("default-src 'self'");
    assertThat(page.getHeader("X-Content-Type-Options")).isEqualTo("nosniff");
    // Relative URLs would resolve under /c/ and miss: every asset the page names is absolute.
    assertThat(page.bodyAsString()).contains("<title>Quarry</title>").contains("src=\"/js/app.js\"")
        .doesNotContain("src=\"js/").doesNotContain("href=\"css/");
    for (String path : new String[] {"/c/not-an-id", "/c/0f8fad5b-d9cb-469f-a165-70867728950e/x", "/c/"}) {
      assertThat(send(HttpMethod.GET, path, null).statusCode()).as(path).isEqualTo(404);
    }
  }

  @Test
  @DisplayName("issue 49 (4b): a malformed conversation address (/c/not-a-uuid) is a 404 that serves the page, with"
      + " the security headers, for it to say 'Conversation not found'; not a bare JSON error")
  void malformedConversationAddress() {
    for (String path : new String[] {"/c/not-a-uuid", "/c/0f8fad5b-d9cb-469f", "/c/%27%20OR%201%3D1"}) {
      HttpResponse<Buffer> page = send(HttpMethod.GET, path, null);
      assertThat(page.statusCode()).as(path).isEqualTo(404);
      assertThat(page.getHeader("content-type")).as(path).startsWith("text/html");
      assertThat(page.getHeader("Content-Security-Policy")).as(path).contains("default-src 'self'");
      assertThat(page.bodyAsString()).as(path).contains("<title>Quarry</title>").doesNotContain("\"error\"");
    }
  }
}
