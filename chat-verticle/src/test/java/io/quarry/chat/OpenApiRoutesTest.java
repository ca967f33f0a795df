package io.quarry.chat;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.DeploymentOptions;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.junit5.VertxExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 50 item 3: the OpenAPI document at {@code /api/openapi.json} lists exactly the routes the HTTP edge serves,
 * so a route added without its contract (or a contract left for a route gone) fails here, not in a program's hands.
 */
@ExtendWith(VertxExtension.class)
class OpenApiRoutesTest {

  /** The operations an OpenAPI path item may hold. */
  private static final Set<String> METHODS = Set.of("get", "put", "post", "delete", "patch", "head", "options", "trace");

  ChatVerticle chat;
  WebClient client;

  @BeforeEach
  void deploy(Vertx vertx) {
    chat = new ChatVerticle();
    // Password mode: the document must be served to whoever has not signed in.
    vertx.deployVerticle(chat, new DeploymentOptions().setConfig(new JsonObject().put("port", 0)
        .put("authMode", Auth.PASSWORD).put("mcp", new JsonObject().put("enabled", true)))).await();
    client = WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(chat.port()));
  }

  private static JsonObject document() {
    return OpenApiDoc.load().toJsonObject();
  }

  /**
   * "METHOD /path" of every route mounted for a method, Vert.x's {@code :name} as OpenAPI's {@code {name}}. The routes
   * without a method are the filters every request passes and {@link Routes#allowOnly}'s 405s; the regex ones are the
   * page's addresses ({@code /c/<id>}), which serve the web page, not the API.
   */
  static Set<String> served(Iterable<Route> routes) {
    Set<String> found = new TreeSet<>();
    for (Route route : routes) {
      // A path with parameters is a regex path too, but keeps its path; the pages' regex routes have none.
      if (route.getPath() == null || route.methods() == null) {
        continue;
      }
      String path = route.getPath().replaceAll(":(\\w+)", "{$1}");
      route.methods().forEach(m -> found.add(m.name() + " " + path));
    }
    return found;
  }

  static Set<String> documented(JsonObject document) {
    Set<String> found = new TreeSet<>();
    JsonObject paths = document.getJsonObject("paths");
    for (String path : paths.fieldNames()) {
      for (String method : paths.getJsonObject(path).fieldNames()) {
        if (METHODS.contains(method)) {
          found.add(method.toUpperCase(Locale.ROOT) + " " + path);
        }
      }
    }
    return found;
  }

  @Test
  @DisplayName("every route the router serves for a method is in the document, and the document lists no other")
  void routesMatch() {
    Set<String> served = served(chat.routes());
    assertThat(served).as("the router's routes").contains("GET /api/openapi.json", "POST /api/conversations/{id}/query");
    assertThat(documented(document())).isEqualTo(served);
  }

  @Test
  @DisplayName("every path a 405 guards (Routes.allowOnly) is a path of the document")
  void guardedPathsDocumented() {
    Set<String> paths = document().getJsonObject("paths").fieldNames();
    for (Route route : chat.routes()) {
      boolean guard = route.getPath() != null && route.isExactPath()
          && (route.methods() == null || route.methods().isEmpty()) && route.getPath().startsWith("/api/");
      if (guard) {
        assertThat(paths).contains(route.getPath().replaceAll(":(\\w+)", "{$1}"));
      }
    }
  }

  @Test
  @DisplayName("GET /api/openapi.json needs no sign-in and answers the resource, an OpenAPI 3.1 document"
      + " with a version and its compatibility policy; any other method is 405")
  void served() {
    HttpResponse<Buffer> got = client.get(OpenApiDoc.PATH).send().await();
    assertThat(got.statusCode()).isEqualTo(200);
    assertThat(got.getHeader("content-type")).isEqualTo("application/json");
    JsonObject served = got.bodyAsJsonObject();
    assertThat(served).isEqualTo(document());
    assertThat(served.getString("openapi")).startsWith("3.1");
    assertThat(served.getJsonObject("info").getString("version")).matches("\\d+\\.\\d+\\.\\d+");
    assertThat(served.getJsonObject("info").getString("description")).contains("## Compatibility");
    HttpResponse<Buffer> posted = client.post(OpenApiDoc.PATH).putHeader("Content-Type", "application/json")
        .sendBuffer(Buffer.buffer("{}")).await();
    assertThat(posted.statusCode()).isEqualTo(405);
    assertThat(posted.getHeader("Allow")).isEqualTo("GET");
  }

  /** Each documented operation, as {@code [method, path, operation]}, with its path parameters filled in. */
  private static List<Object[]> operations(JsonObject document) {
    List<Object[]> found = new ArrayList<>();
    JsonObject paths = document.getJsonObject("paths");
    for (String path : paths.fieldNames()) {
      for (String method : paths.getJsonObject(path).fieldNames()) {
        if (METHODS.contains(method)) {
          found.add(new Object[] {HttpMethod.valueOf(method.toUpperCase(Locale.ROOT)),
              path.replaceAll("\\{\\w+}", "x"), paths.getJsonObject(path).getJsonObject(method)});
        }
      }
    }
    return found;
  }

  @Test
  @DisplayName("an operation documented without security answers without a session, and every other one"
      + " answers 401 without one (password mode)")
  void securityMatches() {
    for (Object[] op : operations(document())) {
      HttpMethod method = (HttpMethod) op[0];
      String path = (String) op[1];
      JsonObject operation = (JsonObject) op[2];
      var request = client.request(method, path);
      HttpResponse<Buffer> response = (method == HttpMethod.GET || method == HttpMethod.DELETE ? request.send()
          : request.putHeader("Content-Type", "application/json").sendBuffer(Buffer.buffer("{}"))).await();
      boolean open = operation.getJsonArray("security").isEmpty();
      assertThat(response.statusCode() == 401).as("%s %s answered %s %s; documented %s", method, path,
          response.statusCode(), response.bodyAsString(), open ? "open" : "signed in").isEqualTo(!open);
    }
  }

  @Test
  @DisplayName("the API-token scope each REST operation documents is the one RestScopes demands (MCP's"
      + " tools each need their own, which tools/list says)")
  void scopesMatch() {
    for (Object[] op : operations(document())) {
      HttpMethod method = (HttpMethod) op[0];
      String path = (String) op[1];
      JsonObject operation = (JsonObject) op[2];
      if (path.equals(McpEndpoint.PATH)) {
        continue;
      }
      for (Object each : operation.getJsonArray("security")) {
        JsonObject requirement = (JsonObject) each;
        if (requirement.containsKey("bearer")) {
          assertThat(requirement.getJsonArray("bearer")).as("%s %s", method, path)
              .containsExactly(RestScopes.needed(method, path).label());
        }
      }
    }
  }
}
