package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.bus.Addresses;
import io.quarry.bus.ApiOps;
import io.quarry.bus.Export;
import io.quarry.bus.ScheduleOps;
import io.quarry.bus.ApiOps.CreateConversation;
import io.quarry.bus.Bus;
import io.quarry.bus.StorageOps;
import io.quarry.testing.BridgeClient;
import io.quarry.testing.FakeGemini;
import io.quarry.testing.JarCommand;
import io.quarry.testing.ParquetFixtures;
import io.quarry.testing.ParquetServer;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The event-bus bridge in password mode: a Node.js client (no JVM) signs in with a token the operator's command made,
 * works as that token's user and reads failures as JSON; the bridge's limits, and a revoked token, from a raw socket.
 */
class BridgeTest {

  @TempDir
  static Path dir;

  static Vertx outside;
  static FakeGemini gemini;
  static ParquetServer files;
  static Map<String, String> env;
  static Node node;
  static Bus bus;
  static int bridgePort;

  @BeforeAll
  static void start() {
    outside = Vertx.vertx();
    gemini = FakeGemini.start(outside);
    files = ParquetServer.start(outside);
    env = TestNodes.programsEnv(dir, gemini);
    bridgePort = JarCommand.freePort();
    env.put("QUARRY_BRIDGE_PORT", String.valueOf(bridgePort));
    node = TestNodes.start(env, dir);
    bus = new Bus(node.vertx());
    files.route("/people.parquet").content(ParquetFixtures.people(dir));
  }

  @AfterAll
  static void stop() {
    node.stop().await();
    outside.close().await();
  }

  private static String user(String email) {
    String invite = StorageOps.INVITE_CREATE.call(bus, null).await().code();
    return StorageOps.USER_CREATE.call(bus, new StorageOps.NewUser(email, "not-a-hash", invite)).await().id();
  }

  /** The operator's command, on the running server's database: "token &lt;token&gt;" then "id &lt;id&gt;". */
  private static List<String> token(String... args) {
    String[] argv = new String[args.length + 3];
    argv[0] = "token";
    System.arraycopy(args, 0, argv, 1, args.length);
    argv[args.length + 1] = "--config";
    argv[args.length + 2] = dir.resolve("absent-config.json").toString();
    return TokenCommand.run(env, argv).await().lines().toList();
  }

  @Test
  @DisplayName("a Node.js client signs in with its token, makes a conversation, adds a dataset, runs a query, streams an"
      + " answer and reads usage as the token's user; failures arrive as {code, message, details}; another user's"
      + " conversation and events, internal addresses and user look-ups are refused")
  void nodeClient() throws Exception {
    String email = "bridge-" + UUID.randomUUID() + "@example.com";
    String userId = user(email);
    String other = user("other-" + UUID.randomUUID() + "@example.com");
    String othersConversation = ApiOps.CONVERSATION_CREATE.call(bus, new CreateConversation(other, null, "Theirs"))
        .await().id();
    List<String> made = token("create", "--user", email);
    assertThat(made.get(0)).startsWith("token qt_");
    gemini.next().answer("There are ", "100 people.").usage(30, 5);

    JsonObject out = runNode(Map.of("BRIDGE_PORT", String.valueOf(bridgePort),
        "BRIDGE_TOKEN", made.get(0).substring("token ".length()), "DATASET_URL", files.url("/people.parquet"),
        "QUESTION", "How many people?", "OTHER_CONVERSATION", othersConversation, "OTHER_USER_ID", other));

    assertThat(out.getJsonObject("beforeSignIn")).isEqualTo(failure(401, "Sign in first: send {\"token\": \"...\"}"
        + " to quarry.bridge.login"));
    assertThat(out.getJsonObject("badToken")).isEqualTo(failure(401, "Unknown or revoked token"));
    assertThat(out.getJsonObject("signedIn")).isEqualTo(new JsonObject().put("user_id", userId).put("email", email));
    String conversation = out.getJsonObject("conversation").getString("id");
    assertThat(out.getJsonArray("listed")).containsExactly(conversation);
    assertThat(ApiOps.CONVERSATION_LIST.call(bus, new io.quarry.bus.Scopes.UserRef(other)).await())
        .extracting(io.quarry.bus.Conversation::id).containsExactly(othersConversation);
    assertThat(out.getJsonObject("dataset")).isEqualTo(new JsonObject().put("name", "table1").put("status", "ready")
        .put("row_count", 100));
    assertThat(out.getJsonArray("rows")).isEqualTo(new JsonArray().add(new JsonArray().add(100)));
    assertThat(out.getJsonObject("sqlError").getInteger("code")).isEqualTo(422);
    assertThat(out.getJsonObject("answer")).isEqualTo(new JsonObject().put("text", "There are 100 people.")
        .put("type", "chat_complete").put("message_id_matches", true));
    assertThat(out.getJsonObject("usage").getLong("tokens_used")).isEqualTo(35);
    assertThat(out.getJsonObject("othersConversation").getInteger("code")).isEqualTo(404);
    assertThat(out.getJsonObject("internal")).isEqualTo(failure(404,
        "storage.conversation.list is not a public operation"));
    assertThat(out.getJsonObject("userLookup")).isEqualTo(failure(404, "api.user.find is not a public operation"));
    assertThat(out.getJsonObject("export")).isEqualTo(failure(400, Export.NOT_ON_BRIDGE));
    assertThat(out.getJsonObject("ping").getJsonArray("roles")).contains("web");
    assertThat(out.getJsonObject("tooLong")).isEqualTo(failure(400,
        "Field 'content' must be at most 10,000 characters"));
    assertThat(out.getString("othersEvents")).startsWith("access_denied");
    assertThat(out.containsKey("stolenEvent")).isFalse();
  }

  @Test
  @DisplayName("a bridge client schedules a result's SQL with api.schedule.create and, subscribed to its user's events,"
      + " receives the run's schedule_run event, and lists it")
  void scheduleOverTheBridge() throws Exception {
    String email = "schedules-" + UUID.randomUUID() + "@example.com";
    String userId = user(email);
    String conversation = ApiOps.CONVERSATION_CREATE.call(bus, new CreateConversation(userId, null, "Runs")).await()
        .id();
    ApiOps.DATASET_ADD.call(bus, new io.quarry.bus.DatasetOps.AddDataset(userId, conversation,
        files.url("/people.parquet"))).await();
    String resultId = ApiOps.QUERY_RUN.call(bus, new ApiOps.Query(userId, conversation,
        "SELECT count(*) AS n FROM table1")).await().id();
    String token = token("create", "--user", email, "--scope", "query").get(0).substring("token ".length());
    BridgeClient client = BridgeClient.connect(node.vertx(), bridgePort);
    assertThat(answer(client.request("quarry.bridge.login", new JsonObject().put("token", token)))
        .getJsonObject("body").getString("user_id")).isEqualTo(userId);
    client.write(new JsonObject().put("type", "register").put("address", Addresses.chatEvents(userId)));

    JsonObject made = answer(client.request(Addresses.API_SCHEDULE_CREATE, new JsonObject()
        .put("result_id", resultId).put("every", "daily").put("at", "07:00"))).getJsonObject("body");
    assertThat(made.getString("every")).isEqualTo("daily");
    ScheduleOps.TICK.call(bus, new ScheduleOps.Tick(made.getString("next_run_at"))).await();
    JsonObject frame = client.next(30);
    assertThat(frame.getString("type")).isEqualTo("message");
    assertThat(frame.getString("address")).isEqualTo(Addresses.chatEvents(userId));
    JsonObject event = frame.getJsonObject("body");
    assertThat(event.getString("type")).isEqualTo("schedule_run");
    assertThat(event.getString("schedule_id")).isEqualTo(made.getString("id"));
    assertThat(event.getString("summary")).isEqualTo("First run: nothing to compare with yet (1 row)");
    assertThat(answer(client.request(Addresses.API_SCHEDULE_LIST, new JsonObject())).getJsonObject("body")
        .getJsonArray("items")).hasSize(1);
    client.close();
  }

  private static JsonObject failure(int code, String message) {
    return new JsonObject().put("code", code).put("message", message).putNull("details");
  }

  private JsonObject runNode(Map<String, String> vars) throws Exception {
    Path script = dir.resolve("client.mjs");
    try (var in = BridgeTest.class.getResourceAsStream("/bridge/client.mjs")) {
      Files.copy(in, script, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
    ProcessBuilder command = new ProcessBuilder("node", script.toString()).redirectErrorStream(false);
    command.environment().putAll(vars);
    Path stdout = dir.resolve("node.out");
    Path stderr = dir.resolve("node.err");
    Process process = command.redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
    assertThat(process.waitFor(90, TimeUnit.SECONDS)).as("the Node.js client ended").isTrue();
    assertThat(process.exitValue()).as(Files.readString(stderr)).isZero();
    List<String> lines = Files.readAllLines(stdout, StandardCharsets.UTF_8);
    return new JsonObject(lines.get(lines.size() - 1));
  }

  @Test
  @DisplayName("a revoked token signs nobody in and ends the requests of connections it signed in; the command refuses"
      + " an unknown email or id by name")
  void revoked() throws Exception {
    String email = "revoked-" + UUID.randomUUID() + "@example.com";
    user(email);
    List<String> made = token("create", "--user", email);
    String token = made.get(0).substring("token ".length());
    BridgeClient client = BridgeClient.connect(node.vertx(), bridgePort);
    assertThat(answer(client.request("quarry.bridge.login", new JsonObject().put("token", token)))
        .getString("type")).isEqualTo("message");
    assertThat(token("revoke", made.get(1).substring("id ".length()))).containsExactly("revoked "
        + made.get(1).substring("id ".length()));
    JsonObject refused = answer(client.request("api.conversation.list", new JsonObject()));
    assertThat(refused.getInteger("code")).isEqualTo(401);
    assertThat(refused.getString("message")).isEqualTo("Unknown or revoked token");
    assertThat(answer(BridgeClient.connect(node.vertx(), bridgePort).request("quarry.bridge.login",
        new JsonObject().put("token", token))).getInteger("code")).isEqualTo(401);
    assertThatThrownBy(() -> token("create", "--user", "nobody@example.com"))
        .hasMessage("No user has the email nobody@example.com");
    assertThatThrownBy(() -> token("revoke", "no-such-id")).hasMessage("No token has the id no-such-id");
    assertThatThrownBy(() -> token("create")).as("a password server's token is some user's")
        .hasMessage(TokenCommand.WHOSE);
    assertThatThrownBy(() -> token("create", "--user")).hasMessageStartingWith("usage: java -jar quarry.jar token create");
  }

  @Test
  @DisplayName("a connection gets three tries to sign in: the first two failures are answered, the third ends it")
  void signInTries() throws Exception {
    BridgeClient client = BridgeClient.connect(node.vertx(), bridgePort);
    JsonObject wrong = new JsonObject().put("token", "qt_wrong");
    for (int i = 0; i < 2; i++) {
      assertThat(answer(client.request("quarry.bridge.login", wrong)).getInteger("code")).isEqualTo(401);
    }
    assertThat(answer(client.request("quarry.bridge.login", wrong)).getInteger("code")).isEqualTo(401);
    assertThat(client.next(10).getString("message")).isEqualTo("Too many failed sign-ins");
    closes(client);
  }

  @Test
  @DisplayName("frames at their size limits are read, before signing in (4,096 bytes) and after (1 MiB); one byte past"
      + " either, the connection is cut off before the frame is read")
  void frameLimits() throws Exception {
    JsonObject frame = new JsonObject().put("type", "send").put("address", "api.usage.get").put("replyAddress", "r")
        .put("body", new JsonObject());
    BridgeClient unsigned = BridgeClient.connect(node.vertx(), bridgePort);
    assertThat(sent(unsigned, padded(frame, ApiOps.BRIDGE_MAX_SIGN_IN_FRAME_BYTES)).getInteger("code"))
        .isEqualTo(401);
    assertThat(sent(unsigned, padded(frame, ApiOps.BRIDGE_MAX_SIGN_IN_FRAME_BYTES + 1)).getString("message"))
        .isEqualTo("A frame must hold 2 to 4096 bytes of JSON before signing in");
    closes(unsigned);

    String email = "frames-" + UUID.randomUUID() + "@example.com";
    user(email);
    String token = token("create", "--user", email).get(0).substring("token ".length());
    BridgeClient signed = BridgeClient.connect(node.vertx(), bridgePort);
    assertThat(answer(signed.request("quarry.bridge.login", new JsonObject().put("token", token)))
        .getString("type")).isEqualTo("message");
    JsonObject atLimit = sent(signed, padded(frame, ApiOps.BRIDGE_MAX_FRAME_BYTES));
    assertThat(atLimit.getString("type")).as(atLimit.encode()).isEqualTo("message");
    assertThat(sent(signed, padded(frame, ApiOps.BRIDGE_MAX_FRAME_BYTES + 1)).getString("message"))
        .isEqualTo("A frame must hold 2 to 1048576 bytes of JSON");
    closes(signed);
  }

  /** {@code frame} with a field that makes its JSON exactly {@code bytes} long. */
  private static JsonObject padded(JsonObject frame, int bytes) {
    int room = bytes - frame.copy().put("pad", "").encode().length();
    return frame.copy().put("pad", "x".repeat(room));
  }

  /** An answer within 30 s. */
  private static JsonObject answer(Future<JsonObject> request) {
    return request.timeout(30, TimeUnit.SECONDS).await();
  }

  /** Writes {@code frame} as it is; the next frame the bridge sends back. */
  private static JsonObject sent(BridgeClient client, JsonObject frame) throws InterruptedException {
    client.write(frame);
    JsonObject back = client.next(30);
    assertThat(back).as("an answer to a frame of " + frame.encode().length() + " bytes").isNotNull();
    return back;
  }

  private static void closes(BridgeClient client) {
    client.closed().timeout(10, TimeUnit.SECONDS).await();
  }
}
