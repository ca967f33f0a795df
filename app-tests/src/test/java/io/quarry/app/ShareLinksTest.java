package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.Addresses;
import io.quarry.bus.ApiOps;
import io.quarry.bus.ApiOps.CreateShare;
import io.quarry.bus.ApiOps.ShareMade;
import io.quarry.bus.Bus;
import io.quarry.bus.ChatMessage;
import io.quarry.bus.Failure;
import io.quarry.bus.QueryResult;
import io.quarry.bus.RowsJson;
import io.quarry.bus.Scopes.UserRef;
import io.quarry.bus.Shares;
import io.quarry.bus.StorageClient;
import io.quarry.testing.Failures;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.ext.web.client.WebClientSession;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Share links end to end on a real node (password mode, real SQLite; issue 52, item 1): made, listed and revoked by
 * their sharer; what a link opens without a session is the snapshot and nothing else (no user id, e-mail, dataset
 * secret); later messages stay out; downloads are the stored rows of the share's own results; another user's share is
 * 404; at most {@code storage.maxSharesPerUser} (3 here) live links.
 */
class ShareLinksTest {

  static final String SECRET = "SIGxyz0123456789abcdef";

  @TempDir
  static Path dir;

  static Node node;
  static StorageClient storage;

  @BeforeAll
  static void start() {
    Map<String, String> env = TestNodes.env(dir);
    env.put("QUARRY_AUTH_MODE", "password");
    env.put("QUARRY_LOCAL_WORKERS", "0");
    env.put("QUARRY_SHARE_AUDIENCE", "anyone");
    env.put("QUARRY_STORAGE_MAX_SHARES_PER_USER", "3");
    node = TestNodes.start(env, dir);
    storage = new StorageClient(node.vertx());
  }

  @AfterAll
  static void stop() {
    node.stop().await();
  }

  private static WebClient client() {
    return WebClient.create(node.vertx(), new WebClientOptions().setDefaultHost("127.0.0.1")
        .setDefaultPort(node.httpPort()));
  }

  private static WebClientSession signedUp(String email) {
    WebClientSession session = WebClientSession.create(client());
    String invite = storage.createInvite().await();
    assertThat(session.post("/api/auth/signup").sendJsonObject(new JsonObject().put("email", email)
        .put("password", "long enough").put("invite", invite)).await().statusCode()).isEqualTo(201);
    return session;
  }

  private static HttpResponse<Buffer> send(WebClient client, HttpMethod method, String path, JsonObject body) {
    return TestNodes.send(client, method, path, body);
  }

  /** A conversation of {@code session}'s user with a question, an answer with its result and chart, and a dataset. */
  record Seeded(String userId, String conversation, String question, String answer, String result) {
  }

  private static Seeded seed(WebClientSession session, String title) {
    String userId = send(session, HttpMethod.GET, "/api/me", null).bodyAsJsonObject().getString("id");
    String conversation = send(session, HttpMethod.POST, "/api/conversations", new JsonObject().put("title", title))
        .bodyAsJsonObject().getString("id");
    String url = "https://bucket.example.com/fuel.parquet?X-Amz-Signature=" + SECRET + "&X-Amz-Expires=3600";
    storage.claimDataset(userId, conversation, url, 5).await();
    JsonArray columns = new JsonArray().add(new JsonObject().put("name", "origin").put("type", "VARCHAR"))
        .add(new JsonObject().put("name", "n").put("type", "BIGINT"));
    JsonArray rows = new JsonArray().add(new JsonArray().add("US").add(249)).add(new JsonArray().add("Japan, \"JP\"")
        .add(79));
    JsonArray sources = new JsonArray().add(new JsonObject().put("table", "table1").put("url", url)
        .put("etag", "\"v1\"").put("size", 1234));
    QueryResult result = storage.saveResult(userId, new QueryResult(null, conversation,
        "SELECT origin, count(*) AS n FROM table1 GROUP BY 1", columns, RowsJson.of(rows), 2, false, 5, null, null,
        sources)).await();
    String question = storage.appendMessage(userId, ChatMessage.user(conversation, "Cars by origin?")).await().id();
    JsonArray charts = new JsonArray().add(new JsonObject().put("result_id", result.id())
        .put("spec", new JsonObject().put("chart_type", "bar").put("x", "origin").put("y", new JsonArray().add("n")))
        .put("data", new JsonObject().put("columns", columns).put("rows", rows).put("shows", "all 2 rows")));
    String answer = storage.appendMessage(userId, new ChatMessage(null, conversation, ChatMessage.ASSISTANT,
        "Most cars are from the US (249).", new JsonArray(), new JsonArray().add(result.sql()),
        new JsonArray().add(result.id()), charts, 10, 5, ChatMessage.COMPLETE, null, null)).await().id();
    return new Seeded(userId, conversation, question, answer, result.id());
  }

  private static JsonObject made(WebClientSession session, JsonObject body) {
    HttpResponse<Buffer> made = send(session, HttpMethod.POST, "/api/shares", body);
    assertThat(made.statusCode()).as(made.bodyAsString()).isEqualTo(201);
    return made.bodyAsJsonObject();
  }

  @Test
  @DisplayName("a link for anyone opens without a session: the answer, its SQL, rows and chart, the sharer's chosen"
      + " name; no user id, e-mail, conversation id or signed URL's secret; messages after it stay out")
  void anonymousSnapshot() throws Exception {
    WebClientSession ada = signedUp("ada-" + UUID.randomUUID() + "@example.com");
    Seeded s = seed(ada, "Fuel");
    JsonObject share = made(ada, new JsonObject().put("conversation_id", s.conversation()).put("audience", "anyone")
        .put("display_name", "Ada L."));
    storage.appendMessage(s.userId(), ChatMessage.user(s.conversation(), "A later question")).await();

    HttpResponse<Buffer> got = client().get("/api/s/" + share.getString("token")).send().await();
    assertThat(got.statusCode()).as(got.bodyAsString()).isEqualTo(200);
    assertThat(got.getHeader("Referrer-Policy")).isEqualTo("no-referrer");
    String raw = got.bodyAsString();
    assertThat(raw).doesNotContain(s.userId()).doesNotContain("@example.com").doesNotContain(SECRET)
        .doesNotContain(s.conversation()).doesNotContain("A later question").contains("[redacted]");
    JsonObject view = got.bodyAsJsonObject();
    assertThat(view.getString("title")).isEqualTo("Fuel");
    assertThat(view.getString("display_name")).isEqualTo("Ada L.");
    assertThat(view.getJsonArray("messages")).extracting(m -> ((JsonObject) m).getString("content"))
        .containsExactly("Cars by origin?", "Most cars are from the US (249).");
    JsonObject result = view.getJsonArray("results").getJsonObject(0);
    assertThat(result.getString("sql")).isEqualTo("SELECT origin, count(*) AS n FROM table1 GROUP BY 1");
    assertThat(result.getJsonArray("rows").getJsonArray(0).getValue(0)).isEqualTo("US");
    assertThat(result.getJsonArray("sources").getJsonObject(0).getString("etag")).isEqualTo("\"v1\"");
    assertThat(view.getJsonArray("messages").getJsonObject(1).getJsonArray("charts").getJsonObject(0)
        .getJsonObject("spec").getString("chart_type")).isEqualTo("bar");
    assertThat(view.getJsonArray("datasets").getJsonObject(0).getString("name")).isEqualTo("table1");
    assertThat(TestNodes.sqlite(dir, "SELECT COUNT(*) FROM shares WHERE token_hash LIKE '%"
        + share.getString("token") + "%'")).as("only the hash is kept").isZero();
  }

  @Test
  @DisplayName("downloads are the share's own results' stored rows, CSV or JSON; another result, an unknown format,"
      + " and after revoking anything at all: 404 (400 for the format)")
  void downloadsAndRevoke() {
    WebClientSession ada = signedUp("ada-" + UUID.randomUUID() + "@example.com");
    Seeded s = seed(ada, "Fuel");
    Seeded other = seed(ada, "Other");
    String token = made(ada, new JsonObject().put("conversation_id", s.conversation()).put("message_id", s.answer())
        .put("audience", "anyone")).getString("token");
    WebClient anonymous = client();
    String base = "/api/s/" + token + "/results/";

    HttpResponse<Buffer> csv = anonymous.get(base + s.result() + "?format=csv").send().await();
    assertThat(csv.statusCode()).isEqualTo(200);
    assertThat(csv.bodyAsString()).isEqualTo("origin,n\r\nUS,249\r\n\"Japan, \"\"JP\"\"\",79\r\n");
    assertThat(csv.getHeader("Content-Disposition")).startsWith("attachment");
    JsonArray json = anonymous.get(base + s.result() + "?format=json").send().await().bodyAsJsonArray();
    assertThat(json.getJsonObject(0).getMap()).containsEntry("origin", "US").containsEntry("n", 249);
    HttpAssertions.assertError(anonymous.get(base + other.result()).send().await(), 404,
        "This link does not exist or no longer works");
    assertThat(anonymous.get(base + s.result() + "?format=xls").send().await().statusCode()).isEqualTo(400);

    String id = send(ada, HttpMethod.GET, "/api/shares", null).bodyAsJsonObject().getJsonArray("shares")
        .getJsonObject(0).getString("id");
    assertThat(send(ada, HttpMethod.DELETE, "/api/shares/" + id, null).statusCode()).isEqualTo(204);
    for (String path : new String[] {"/api/s/" + token, base + s.result(), "/api/s/qs_never-made"}) {
      HttpAssertions.assertError(anonymous.get(path).send().await(), 404, "This link does not exist or no longer works");
    }
    JsonObject listed = send(ada, HttpMethod.GET, "/api/shares", null).bodyAsJsonObject().getJsonArray("shares")
        .getJsonObject(0);
    assertThat(listed.getString("status")).isEqualTo("revoked");
    assertThat(listed.getString("kind")).isEqualTo("message");
    assertThat(listed.encode()).doesNotContain(token);
  }

  @Test
  @DisplayName("an answer's link shows that answer and its question only; a link for users asks an anonymous viewer"
      + " to sign in (401) and opens for another signed-in user")
  void messageShareForUsers() {
    WebClientSession ada = signedUp("ada-" + UUID.randomUUID() + "@example.com");
    Seeded s = seed(ada, "Fuel");
    storage.appendMessage(s.userId(), ChatMessage.user(s.conversation(), "Second question")).await();
    String token = made(ada, new JsonObject().put("conversation_id", s.conversation()).put("message_id", s.answer()))
        .getString("token");

    HttpAssertions.assertError(client().get("/api/s/" + token).send().await(), 401,
        "Sign in to this Quarry to see this shared link");
    WebClientSession bob = signedUp("bob-" + UUID.randomUUID() + "@example.com");
    JsonObject view = send(bob, HttpMethod.GET, "/api/s/" + token, null).bodyAsJsonObject();
    assertThat(view.getString("kind")).isEqualTo("message");
    assertThat(view.getJsonArray("messages")).extracting(m -> ((JsonObject) m).getString("id"))
        .containsExactly(s.question(), s.answer());
  }

  @Test
  @DisplayName("another user's conversation or share: 404 and nothing changes; 3 live links fit, the 4th is 409,"
      + " and revoking one makes room")
  void isolationAndCap() {
    WebClientSession ada = signedUp("ada-" + UUID.randomUUID() + "@example.com");
    WebClientSession bob = signedUp("bob-" + UUID.randomUUID() + "@example.com");
    Seeded s = seed(ada, "Fuel");
    JsonObject share = made(ada, new JsonObject().put("conversation_id", s.conversation()));

    HttpAssertions.assertError(send(bob, HttpMethod.POST, "/api/shares", new JsonObject()
        .put("conversation_id", s.conversation())), 404, "Conversation not found");
    HttpAssertions.assertError(send(bob, HttpMethod.POST, "/api/shares", new JsonObject()
        .put("conversation_id", s.conversation()).put("message_id", s.answer())), 404, "Conversation not found");
    HttpAssertions.assertError(send(bob, HttpMethod.DELETE, "/api/shares/" + share.getString("id"), null), 404,
        "Share not found");
    assertThat(send(bob, HttpMethod.GET, "/api/shares", null).bodyAsJsonObject().getJsonArray("shares")).isEmpty();
    assertThat(client().get("/api/s/" + share.getString("token")).send().await().statusCode())
        .as("still open for its audience: bob's revoke changed nothing").isEqualTo(401);

    made(ada, new JsonObject().put("conversation_id", s.conversation()));
    made(ada, new JsonObject().put("conversation_id", s.conversation()));
    HttpAssertions.assertError(send(ada, HttpMethod.POST, "/api/shares", new JsonObject()
        .put("conversation_id", s.conversation())), 409,
        "You have 3 live share links, the most one account may have: revoke one to share again");
    assertThat(send(ada, HttpMethod.DELETE, "/api/shares/" + share.getString("id"), null).statusCode()).isEqualTo(204);
    made(ada, new JsonObject().put("conversation_id", s.conversation()));
  }

  @Test
  @DisplayName("the bus's api.share.* are the same core: a link made on the bus opens over HTTP, lists, and once"
      + " revoked is 404; a number where text belongs, and a day count past 365, are BAD_REQUEST")
  void busDoor() {
    WebClientSession ada = signedUp("ada-" + UUID.randomUUID() + "@example.com");
    Seeded s = seed(ada, "Fuel");
    Bus bus = new Bus(node.vertx());
    ShareMade made = ApiOps.SHARE_CREATE.call(bus, new CreateShare(s.userId(), s.conversation(), null, null, "anyone",
        "Ada", "365")).await();
    assertThat(made.url()).isEqualTo("/s/" + made.token());
    assertThat(made.share().expiresAt()).isNotNull();
    assertThat(client().get("/api/s/" + made.token()).send().await().statusCode()).isEqualTo(200);
    assertThat(ApiOps.SHARE_LIST.call(bus, new UserRef(s.userId())).await()).extracting(Shares.Share::id)
        .containsExactly(made.share().id());
    assertThat(ApiOps.SHARE_REVOKE.call(bus, new Shares.ShareRef(s.userId(), made.share().id())).await().revokedAt())
        .isNotNull();
    assertThat(client().get("/api/s/" + made.token()).send().await().statusCode()).isEqualTo(404);

    Failures.assertFails(ApiOps.SHARE_CREATE.call(bus, new CreateShare(s.userId(), s.conversation(), null, null, null,
        null, "366")), Failure.BAD_REQUEST, "Field 'expires_in_days' must be a whole number from 1 to 365");
    JsonObject numeric = new JsonObject().put("user_id", s.userId()).put("conversation_id", s.conversation())
        .put("expires_in_days", 30);
    Failures.assertFails(node.vertx().eventBus().request(Addresses.API_SHARE_CREATE, numeric), Failure.BAD_REQUEST,
        "Field 'expires_in_days' must be a string");
  }
}
