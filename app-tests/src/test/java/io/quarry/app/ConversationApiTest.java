package io.quarry.app;

import static io.quarry.app.HttpAssertions.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
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

/** The conversations REST API end to end: real HTTP, real storage verticle, a real SQLite file. */
class ConversationApiTest {

  @TempDir
  Path dir;

  Node node;
  WebClient client;

  @BeforeEach
  void start() {
    // Conversations run no SQL: a node without worker processes (nor their private cluster) starts in a fraction of
    // the time.
    Map<String, String> env = TestNodes.env(dir);
    env.put("QUARRY_LOCAL_WORKERS", "0");
    node = TestNodes.start(env, dir);
    client = WebClient.create(node.vertx(),
        new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(node.httpPort()));
  }

  @AfterEach
  void stop() {
    node.stop().await();
  }

  private HttpResponse<Buffer> send(HttpMethod method, String path, Object body) {
    return TestNodes.send(client, method, path, body);
  }

  private JsonObject create(String title) {
    HttpResponse<Buffer> response = send(HttpMethod.POST, "/api/conversations",
        title == null ? null : new JsonObject().put("title", title));
    assertThat(response.statusCode()).isEqualTo(201);
    return response.bodyAsJsonObject();
  }


  @Test
  @DisplayName("GET /api/conversations?q= finds conversations by title, newest first; a search over 200 characters is 400")
  void search() {
    JsonObject revenue = create("Revenue by region");
    create("Cars");
    HttpResponse<Buffer> found = send(HttpMethod.GET, "/api/conversations?q=revenue", null);
    assertThat(found.statusCode()).isEqualTo(200);
    assertThat(found.bodyAsJsonObject().getJsonArray("conversations").stream().map(c -> ((JsonObject) c).getString("id")))
        .containsExactly(revenue.getString("id"));
    HttpResponse<Buffer> tooLong = send(HttpMethod.GET, "/api/conversations?q=" + "x".repeat(201), null);
    assertThat(tooLong.statusCode()).isEqualTo(400);
    assertThat(tooLong.bodyAsJsonObject().getString("error")).isEqualTo("Parameter 'q' must be at most 200 characters");
    assertThat(send(HttpMethod.GET, "/api/conversations?q=" + "x".repeat(200), null).statusCode()).isEqualTo(200);
  }

  @Test
  @DisplayName("a search is text: a control character (q=%00x, which SQLite's LIKE would read as the pattern's end and"
      + " match everything) is 400 naming q; % and _ match only themselves")
  void searchControlCharacters() {
    create("Revenue by region");
    create("Cars");
    for (String q : new String[] {"%00x", "%00", "x%0A", "%7F", "%C2%85"}) {
      HttpResponse<Buffer> refused = send(HttpMethod.GET, "/api/conversations?q=" + q, null);
      assertError(refused, 400, "Parameter 'q' must not contain control characters");
    }
    for (String q : new String[] {"%25", "_", "R%25", "C_rs"}) {
      HttpResponse<Buffer> literal = send(HttpMethod.GET, "/api/conversations?q=" + q, null);
      assertThat(literal.statusCode()).as(q).isEqualTo(200);
      assertThat(literal.bodyAsJsonObject().getJsonArray("conversations")).as(q).isEmpty();
    }
  }

  @Test
  @DisplayName("a conversation is created (201, default title when none is given) and listed newest first")
  void createAndList() {
    JsonObject first = create("Sales questions");
    JsonObject second = create(null);
    assertThat(first.getString("title")).isEqualTo("Sales questions");
    assertThat(second.getString("title")).isEqualTo("New conversation");
    assertThat(first.getString("id")).matches("[0-9a-f-]{36}");
    assertThat(first.getString("created_at")).endsWith("Z");

    JsonArray all = send(HttpMethod.GET, "/api/conversations", null).bodyAsJsonObject().getJsonArray("conversations");
    assertThat(all.stream().map(c -> ((JsonObject) c).getString("id")))
        .containsExactly(second.getString("id"), first.getString("id"));
  }

  @Test
  @DisplayName("a title of exactly 200 characters is accepted, 201 is refused naming the field")
  void titleLimit() {
    assertThat(create("t".repeat(200)).getString("title")).hasSize(200);
    assertError(send(HttpMethod.POST, "/api/conversations", new JsonObject().put("title", "t".repeat(201))), 400,
        "Field 'title' must be at most 200 characters");
  }

  @Test
  @DisplayName("a conversation is read back with its messages and datasets")
  void readBack() {
    JsonObject c = create("Read me");
    JsonObject full = send(HttpMethod.GET, "/api/conversations/" + c.getString("id"), null).bodyAsJsonObject();
    assertThat(full.getJsonObject("conversation").getString("title")).isEqualTo("Read me");
    assertThat(full.getJsonArray("messages")).isEmpty();
    assertThat(full.getJsonArray("datasets")).isEmpty();
  }

  @Test
  @DisplayName("rename answers the renamed conversation; an empty or missing title is a 400 naming the field")
  void rename() {
    JsonObject c = create("Old");
    String path = "/api/conversations/" + c.getString("id");
    HttpResponse<Buffer> renamed = send(HttpMethod.PATCH, path, new JsonObject().put("title", "  New  "));
    assertThat(renamed.statusCode()).isEqualTo(200);
    assertThat(renamed.bodyAsJsonObject().getString("title")).isEqualTo("New");
    assertError(send(HttpMethod.PATCH, path, new JsonObject()), 400, "Field 'title' is required");
    assertError(send(HttpMethod.PATCH, path, "{oops"), 400, "Request body is not valid JSON");
    assertThat(send(HttpMethod.GET, path, null).bodyAsJsonObject().getJsonObject("conversation").getString("title"))
        .isEqualTo("New");
  }

  @Test
  @DisplayName("delete answers 204, removes the conversation and its messages; a second delete is 404")
  void delete() throws Exception {
    JsonObject c = create("Doomed");
    String path = "/api/conversations/" + c.getString("id");
    assertThat(send(HttpMethod.DELETE, path, null).statusCode()).isEqualTo(204);
    assertError(send(HttpMethod.GET, path, null), 404, "Conversation not found");
    assertError(send(HttpMethod.DELETE, path, null), 404, "Conversation not found");
    assertThat(TestNodes.sqlite(dir, "SELECT COUNT(*) FROM conversations")).isZero();
  }

  @Test
  @DisplayName("unknown ids answer 404 on read, rename and delete")
  void unknownIds() {
    for (String id : new String[] {"00000000-0000-0000-0000-000000000000", "not-a-uuid", "%27%20OR%201%3D1"}) {
      String path = "/api/conversations/" + id;
      assertError(send(HttpMethod.GET, path, null), 404, "Conversation not found");
      assertError(send(HttpMethod.PATCH, path, new JsonObject().put("title", "x")), 404, "Conversation not found");
      assertError(send(HttpMethod.DELETE, path, null), 404, "Conversation not found");
    }
  }

  @Test
  @DisplayName("/api/me is the local user, the same one across requests")
  void me() {
    JsonObject first = send(HttpMethod.GET, "/api/me", null).bodyAsJsonObject();
    JsonObject second = send(HttpMethod.GET, "/api/me", null).bodyAsJsonObject();
    assertThat(first.getString("id")).isNotBlank().isEqualTo(second.getString("id"));
    assertThat(first.getString("auth_mode")).isEqualTo("local");
  }
}
