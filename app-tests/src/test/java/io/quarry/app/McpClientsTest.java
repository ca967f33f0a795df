package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.McpHttpClientTransportAuthorizationException;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ReadResourceRequest;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.TextResourceContents;
import io.quarry.bus.ApiOps;
import io.quarry.bus.ApiOps.CreateConversation;
import io.quarry.bus.Bus;
import io.quarry.bus.StorageOps;
import io.quarry.testing.BridgeClient;
import io.quarry.testing.FakeGemini;
import io.quarry.testing.JarCommand;
import io.quarry.testing.ParquetFixtures;
import io.quarry.testing.ParquetServer;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Quarry's MCP server through the official clients: TypeScript's (@modelcontextprotocol/sdk, run by Node.js as an
 * agent's program runs it) and Java's (io.modelcontextprotocol.sdk:mcp), as agents use them: the tools with their schemas (the client checks each structured answer against its tool's output schema), a
 * conversation made, a Parquet file added, SQL run and a question answered through MCP alone; resources; every
 * refusal: the wrong scope, a revoked token, none, another user's conversation, bad arguments, an unknown tool.
 */
class McpClientsTest {

  @TempDir
  static Path dir;

  static Vertx outside;
  static FakeGemini gemini;
  static ParquetServer files;
  static Map<String, String> env;
  static Node node;
  static Bus bus;
  static final int PACE_BURST = 40;
  static WebClient web;
  static int bridgePort;
  static HttpClient client;

  @BeforeAll
  static void start() {
    outside = Vertx.vertx();
    gemini = FakeGemini.start(outside);
    files = ParquetServer.start(outside);
    env = TestNodes.programsEnv(dir, gemini);
    env.put("QUARRY_MCP_ENABLED", "true");
    // Each test's token makes fewer than 40 requests; pace() makes exactly that many and one more.
    env.put("QUARRY_CHAT_TOKEN_BURST", String.valueOf(PACE_BURST));
    env.put("QUARRY_CHAT_TOKEN_REQUESTS_PER_MINUTE", "1");
    bridgePort = JarCommand.freePort();
    env.put("QUARRY_BRIDGE_PORT", String.valueOf(bridgePort));
    node = TestNodes.start(env, dir);
    bus = new Bus(node.vertx());
    web = WebClient.create(outside);
    client = outside.createHttpClient();
    files.route("/people.parquet").content(ParquetFixtures.people(dir));
  }

  @AfterAll
  static void stop() {
    node.stop().await();
    outside.close().await();
  }

  /** A new user and a token of theirs of {@code scope}: [user id, token, token id]. */
  static List<String> userWithToken(String scope) {
    return userWithToken(scope, "mcp-" + UUID.randomUUID() + "@example.com");
  }

  static List<String> userWithToken(String scope, String email) {
    String invite = StorageOps.INVITE_CREATE.call(bus, null).await().code();
    String id = StorageOps.USER_CREATE.call(bus, new StorageOps.NewUser(email, "not-a-hash", invite)).await().id();
    List<String> made = token(email, scope);
    return List.of(id, made.get(0), made.get(1));
  }

  /** [token, token id] of a new token of the user's. */
  static List<String> token(String email, String scope) {
    List<String> made = TokenCommand.run(env, "token", "create", "--user", email, "--scope", scope, "--config",
        dir.resolve("absent.json").toString()).await().lines().toList();
    return List.of(made.get(0).substring("token ".length()), made.get(1).substring("id ".length()));
  }

  static McpSyncClient client(String token, Consumer<McpSchema.ProgressNotification> progress) {
    HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport
        .builder("http://127.0.0.1:" + node.httpPort()).endpoint("/mcp")
        .httpRequestCustomizer((request, method, uri, body, context) -> {
          if (token != null) {
            request.header("Authorization", "Bearer " + token);
          }
        }).build();
    return McpClient.sync(transport).requestTimeout(Duration.ofSeconds(60)).enableCallToolSchemaCaching(true)
        .progressConsumer(progress).build();
  }

  static CallToolResult call(McpSyncClient client, String tool, Map<String, Object> arguments) {
    return client.callTool(CallToolRequest.builder().name(tool).arguments(arguments).build());
  }

  @SuppressWarnings("unchecked")
  static JsonObject structured(CallToolResult result) {
    assertThat(result.isError()).as(text(result)).isFalse();
    JsonObject json = new JsonObject((Map<String, Object>) result.structuredContent());
    assertThat(new JsonObject(text(result))).as("the text is the same answer, for clients before 2025-06-18")
        .isEqualTo(json);
    return json;
  }

  static String text(CallToolResult result) {
    return ((TextContent) result.content().get(0)).text();
  }

  static String refusal(CallToolResult result) {
    assertThat(result.isError()).as(text(result)).isTrue();
    return text(result);
  }

  @Test
  @DisplayName("an agent's whole flow through MCP alone: tools with schemas, a conversation, a Parquet file, SQL, a"
      + " question answered with its text streamed as progress, its SQL and checked numbers; resources")
  void wholeFlow() throws InterruptedException {
    List<String> me = userWithToken("chat");
    List<McpSchema.ProgressNotification> progress = Collections.synchronizedList(new ArrayList<>());
    CountDownLatch streamed = new CountDownLatch(2);
    try (McpSyncClient client = client(me.get(1), notification -> {
      progress.add(notification);
      streamed.countDown();
    })) {
      McpSchema.InitializeResult init = client.initialize();
      assertThat(init.protocolVersion()).isEqualTo("2025-11-25");
      assertThat(init.serverInfo().name()).isEqualTo("quarry");
      List<McpSchema.Tool> tools = client.listTools().tools();
      assertThat(tools).extracting(McpSchema.Tool::name).containsExactly("list_conversations", "create_conversation",
          "add_dataset", "list_datasets", "describe_dataset", "run_sql", "ask");
      assertThat(tools).allSatisfy(t -> {
        assertThat(t.inputSchema()).containsEntry("type", "object");
        assertThat(t.outputSchema()).containsEntry("type", "object");
        assertThat(t.description()).isNotBlank();
      });

      JsonObject made = structured(call(client, "create_conversation", Map.of("title", "People")));
      String conversation = made.getString("id");
      assertThat(structured(call(client, "list_conversations", Map.of())).getJsonArray("conversations"))
          .extracting(c -> ((JsonObject) c).getString("title")).containsExactly("People");

      JsonObject added = structured(call(client, "add_dataset", Map.of("conversation_id", conversation,
          "url", files.url("/people.parquet"))));
      assertThat(added.getString("table")).isEqualTo("table1");
      assertThat(added.getLong("row_count")).isEqualTo(100);
      assertThat(added.getJsonArray("columns")).isNotEmpty();
      JsonObject described = structured(call(client, "describe_dataset", Map.of("conversation_id", conversation,
          "dataset", "table1")));
      assertThat(described).isEqualTo(added);
      assertThat(structured(call(client, "list_datasets", Map.of("conversation_id", conversation)))
          .getJsonArray("datasets")).containsExactly(added);

      JsonObject counted = structured(call(client, "run_sql", Map.of("conversation_id", conversation,
          "sql", "SELECT count(*) AS n FROM table1")));
      assertThat(counted.getJsonArray("rows")).isEqualTo(new JsonArray().add(new JsonArray().add(100)));
      assertThat(counted.getLong("total_rows")).isEqualTo(1);
      assertThat(counted.getBoolean("truncated")).isFalse();
      JsonObject source = counted.getJsonArray("sources").getJsonObject(0);
      assertThat(source.getString("table")).isEqualTo("table1");
      assertThat(source.getString("url")).isEqualTo(files.url("/people.parquet"));
      assertThat(source.getString("etag")).isNotBlank();

      gemini.next().call("execute_sql", new JsonObject().put("query", "SELECT count(*) AS n FROM table1"))
          .usage(10, 1);
      gemini.next().answer("There are ", "100 people.").usage(30, 5);
      CallToolResult asked = client.callTool(CallToolRequest.builder().name("ask")
          .arguments(Map.of("conversation_id", conversation, "question", "How many people?"))
          .progressToken("ask-1").build());
      JsonObject answer = structured(asked);
      assertThat(answer.getString("text")).isEqualTo("There are 100 people.");
      assertThat(answer.getString("status")).isEqualTo("complete");
      assertThat(answer.getJsonArray("sql")).containsExactly("SELECT count(*) AS n FROM table1");
      assertThat(answer.getJsonArray("result_ids")).hasSize(1);
      assertThat(answer.getJsonObject("numbers").getInteger("matched")).isEqualTo(1);
      // The SDK hands notifications to the consumer off the thread that reads the stream: the result can be back
      // before the last of them is (a clean-clone run saw only the first). A client orders them by their progress,
      // which only grows.
      assertThat(streamed.await(30, TimeUnit.SECONDS)).as("both chunks streamed as progress, %s",
          progress).isTrue();
      List<McpSchema.ProgressNotification> inOrder = progress.stream()
          .sorted(Comparator.comparingDouble(n -> n.progress())).toList();
      assertThat(inOrder).extracting(McpSchema.ProgressNotification::message).containsExactly("There are ",
          "100 people.");
      assertThat(inOrder).extracting(McpSchema.ProgressNotification::progressToken).containsOnly("ask-1");
      assertThat(inOrder).extracting(McpSchema.ProgressNotification::progress).containsExactly(10.0, 21.0);

      resources(client, conversation, answer.getJsonArray("result_ids").getString(0));
    }
  }

  private static void resources(McpSyncClient client, String conversation, String resultId) {
    assertThat(client.listResourceTemplates().resourceTemplates()).extracting(McpSchema.ResourceTemplate::uriTemplate)
        .containsExactly("quarry://conversations/{conversation_id}/messages", "quarry://results/{result_id}/rows.csv");
    String messagesUri = "quarry://conversations/" + conversation + "/messages";
    assertThat(client.listResources().resources()).extracting(McpSchema.Resource::uri).containsExactly(messagesUri);
    JsonObject messages = new JsonObject(read(client, messagesUri));
    assertThat(messages.getJsonArray("messages")).extracting(m -> ((JsonObject) m).getString("content"))
        .containsExactly("How many people?", "There are 100 people.");
    assertThat(read(client, "quarry://results/" + resultId + "/rows.csv")).isEqualTo("n\r\n100\r\n");
    assertThatThrownBy(() -> read(client, "quarry://results/" + UUID.randomUUID() + "/rows.csv"))
        .isInstanceOfSatisfying(McpError.class, e -> assertThat(e.getJsonRpcError().code()).isEqualTo(-32002));
  }

  private static String read(McpSyncClient client, String uri) {
    McpSchema.ReadResourceResult read = client.readResource(new ReadResourceRequest(uri));
    return ((TextResourceContents) read.contents().get(0)).text();
  }

  @Test
  @DisplayName("run_sql answers max_rows rows (200 unless asked, at most 2,000: past the 1,000 stored, in the result's"
      + " order) and no more than 50,000 characters of them, saying which limit cut them")
  void rowLimits() {
    List<String> me = userWithToken("query");
    String conversation = ApiOps.CONVERSATION_CREATE.call(bus, new CreateConversation(me.get(0), null, null)).await()
        .id();
    try (McpSyncClient client = client(me.get(1), ignored -> { })) {
      client.initialize();
      String numbers = "SELECT range AS n FROM range(3000) ORDER BY n";
      JsonObject first = structured(call(client, "run_sql", Map.of("conversation_id", conversation, "sql", numbers)));
      assertThat(first.getJsonArray("rows")).hasSize(200);
      assertThat(first.getLong("total_rows")).isEqualTo(3000);
      assertThat(first.getString("truncated_by")).isEqualTo("max_rows");

      JsonObject most = structured(call(client, "run_sql", Map.of("conversation_id", conversation, "sql", numbers,
          "max_rows", 2000)));
      JsonArray rows = most.getJsonArray("rows");
      assertThat(rows).hasSize(2000);
      for (int i = 0; i < rows.size(); i++) {
        assertThat(rows.getJsonArray(i).getLong(0)).isEqualTo(i);
      }
      assertThat(refusal(call(client, "run_sql", Map.of("conversation_id", conversation, "sql", numbers,
          "max_rows", 2001)))).isEqualTo("Field 'max_rows' must be a whole number from 1 to 2,000");
      assertThat(refusal(call(client, "run_sql", Map.of("conversation_id", conversation, "sql", numbers,
          "max_rows", 0)))).isEqualTo("Field 'max_rows' must be a whole number from 1 to 2,000");

      JsonObject wide = structured(call(client, "run_sql", Map.of("conversation_id", conversation,
          "sql", "SELECT repeat('x', 1000) AS text FROM range(100)")));
      assertThat(wide.getString("truncated_by")).isEqualTo("max_chars");
      assertThat(wide.getJsonArray("rows").encode().length()).isLessThanOrEqualTo(50_000);
      assertThat(wide.getJsonArray("rows").encode().length() + 1_010).isGreaterThan(50_000);
    }
  }

  @Test
  @DisplayName("refusals: a read token lists but runs no SQL and asks nothing (saying which scope it needs); another"
      + " user's conversation, and their result and messages as resources, are not found; bad SQL, a missing or"
      + " unknown argument are the tool's error in Quarry's words; an unknown tool is the protocol's error")
  void refusals() {
    List<String> reader = userWithToken("read");
    List<String> other = userWithToken("chat");
    String theirs = ApiOps.CONVERSATION_CREATE.call(bus, new CreateConversation(other.get(0), null, "Theirs")).await()
        .id();
    String mine = ApiOps.CONVERSATION_CREATE.call(bus, new CreateConversation(reader.get(0), null, "Mine")).await()
        .id();
    try (McpSyncClient client = client(reader.get(1), ignored -> { })) {
      client.initialize();
      assertThat(structured(call(client, "list_conversations", Map.of())).getJsonArray("conversations"))
          .extracting(c -> ((JsonObject) c).getString("id")).containsExactly(mine);
      assertThat(refusal(call(client, "run_sql", Map.of("conversation_id", mine, "sql", "SELECT 1"))))
          .isEqualTo("This token's scope is read, and this needs query");
      assertThat(refusal(call(client, "ask", Map.of("conversation_id", mine, "question", "Hi?"))))
          .isEqualTo("This token's scope is read, and this needs chat");
      assertThat(refusal(call(client, "create_conversation", Map.of())))
          .isEqualTo("This token's scope is read, and this needs query");
      assertThat(refusal(call(client, "list_datasets", Map.of("conversation_id", theirs))))
          .isEqualTo("Conversation not found");
      assertThat(refusal(call(client, "list_datasets", Map.of()))).isEqualTo("Field 'conversation_id' is required");
      assertThat(refusal(call(client, "list_datasets", Map.of("conversation_id", mine, "limit", 3))))
          .isEqualTo("Unknown argument 'limit': list_datasets takes conversation_id");
      assertThatThrownBy(() -> call(client, "drop_everything", Map.of()))
          .isInstanceOfSatisfying(McpError.class, e -> assertThat(e.getJsonRpcError().code()).isEqualTo(-32602));
      String theirResult = ApiOps.QUERY_RUN.call(bus, new ApiOps.Query(other.get(0), theirs,
          "SELECT 'theirs alone' AS secret")).await().id();
      for (String uri : List.of("quarry://results/" + theirResult + "/rows.csv",
          "quarry://conversations/" + theirs + "/messages")) {
        assertThatThrownBy(() -> read(client, uri)).as(uri).isInstanceOfSatisfying(McpError.class, e -> {
          assertThat(e.getJsonRpcError().code()).isEqualTo(-32002);
          assertThat(e.getMessage()).doesNotContain("theirs alone");
        });
      }
    }
    try (McpSyncClient client = client(other.get(1), ignored -> { })) {
      client.initialize();
      String bad = refusal(call(client, "run_sql", Map.of("conversation_id", theirs, "sql", "SELECT nope")));
      assertThat(bad).contains("nope");
    }
  }

  @Test
  @DisplayName("the TypeScript SDK's client: no token or an unknown one cannot connect (401); with one, the tools with"
      + " schemas, a conversation, a Parquet file, SQL and its error, a question streamed as progress, a result's CSV;"
      + " an unknown tool or resource is the protocol's error; a read token lists but runs no SQL")
  void typescriptClient() throws Exception {
    String email = "ts-" + UUID.randomUUID() + "@example.com";
    List<String> me = userWithToken("chat", email);
    String reader = token(email, "read").get(0);
    gemini.next().call("execute_sql", new JsonObject().put("query", "SELECT count(*) AS n FROM table1")).usage(10, 1);
    gemini.next().answer("There are ", "100 people.").usage(30, 5);

    JsonObject out = runNode(Map.of("MCP_URL", "http://127.0.0.1:" + node.httpPort() + "/mcp", "TOKEN", me.get(1),
        "READ_TOKEN", reader, "DATASET_URL", files.url("/people.parquet"), "QUESTION", "How many people?"));

    assertThat(out.getJsonObject("noToken").getInteger("code")).isEqualTo(401);
    assertThat(out.getJsonObject("noToken").getString("message")).contains("MCP needs an API token");
    assertThat(out.getJsonObject("badToken").getString("message")).contains("Unknown or revoked token");
    assertThat(out.getJsonObject("version").getString("name")).isEqualTo("quarry");
    assertThat(out.getJsonArray("tools")).hasSize(7).allSatisfy(t -> assertThat((JsonObject) t)
        .isEqualTo(new JsonObject().put("name", ((JsonObject) t).getString("name")).put("input", "object")
            .put("output", "object")));
    assertThat(out.getJsonObject("dataset").getString("table")).isEqualTo("table1");
    assertThat(out.getJsonObject("described")).isEqualTo(out.getJsonObject("dataset"));
    assertThat(out.getJsonObject("sql").getJsonArray("rows")).isEqualTo(new JsonArray().add(new JsonArray().add(100)));
    assertThat(out.getJsonObject("sqlError").getString("error")).contains("nope");
    assertThat(out.getJsonArray("progress")).containsExactly("There are ", "100 people.");
    assertThat(out.getJsonObject("answer").getString("text")).isEqualTo("There are 100 people.");
    assertThat(out.getString("csv")).isEqualTo("n\r\n100\r\n");
    assertThat(out.getJsonArray("templates")).hasSize(2);
    assertThat(out.getJsonObject("unknownTool").getInteger("code")).isEqualTo(-32602);
    assertThat(out.getJsonObject("missingResource").getInteger("code")).isEqualTo(-32002);
    assertThat(out.getJsonObject("readerList").getJsonArray("conversations")).hasSize(1);
    assertThat(out.getJsonObject("readerSql")).isEqualTo(new JsonObject().put("error",
        "This token's scope is read, and this needs query"));
  }

  private static JsonObject runNode(Map<String, String> vars) throws Exception {
    Path script = Path.of(McpClientsTest.class.getResource("/mcp/client.mjs").toURI());
    ProcessBuilder command = new ProcessBuilder("node", script.toString());
    command.environment().putAll(vars);
    Path stdout = dir.resolve("mcp-node.out");
    Path stderr = dir.resolve("mcp-node.err");
    Process process = command.redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
    assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("the Node.js client ended").isTrue();
    assertThat(process.exitValue()).as(Files.readString(stderr)).isZero();
    List<String> lines = Files.readAllLines(stdout, StandardCharsets.UTF_8);
    return new JsonObject(lines.get(lines.size() - 1));
  }

  @Test
  @DisplayName("the transport as a client that is not an SDK meets it: a page of another site 403, a batch or a body"
      + " that is not JSON-RPC 400, JSON only (415), GET 405, an unknown protocol version 400, an older one spoken, a"
      + " notification 202, an unknown method -32601")
  void transport() {
    String token = userWithToken("chat").get(1);
    JsonObject init = rpc(1, "initialize", new JsonObject().put("protocolVersion", "2025-03-26")
        .put("capabilities", new JsonObject()).put("clientInfo", new JsonObject().put("name", "raw").put("version", "1")));
    assertThat(post(token, init, Map.of()).bodyAsJsonObject().getJsonObject("result").getString("protocolVersion"))
        .isEqualTo("2025-03-26");
    init.getJsonObject("params").put("protocolVersion", "1999-01-01");
    assertThat(post(token, init, Map.of()).bodyAsJsonObject().getJsonObject("result").getString("protocolVersion"))
        .as("the newest, for the client to decide").isEqualTo("2025-11-25");

    HttpResponse<Buffer> foreign = post(token, rpc(2, "ping", null), Map.of("Origin", "http://evil.example"));
    assertThat(foreign.statusCode()).isEqualTo(403);
    assertThat(error(foreign)).isEqualTo("Requests from other sites are refused");
    HttpResponse<Buffer> batch = send(token, Buffer.buffer(new JsonArray().add(rpc(3, "ping", null)).encode()), Map.of());
    assertThat(batch.statusCode()).isEqualTo(400);
    assertThat(batch.bodyAsJsonObject().getJsonObject("error").getInteger("code")).isEqualTo(-32600);
    HttpResponse<Buffer> broken = send(token, Buffer.buffer("{\"jsonrpc\": "), Map.of());
    assertThat(broken.bodyAsJsonObject().getJsonObject("error").getInteger("code")).isEqualTo(-32700);
    assertThat(send(token, Buffer.buffer("ping"), Map.of("Content-Type", "text/plain")).statusCode()).isEqualTo(415);
    HttpResponse<Buffer> got = web.get(node.httpPort(), "127.0.0.1", "/mcp").putHeader("Authorization", "Bearer " + token)
        .send().await();
    assertThat(got.statusCode()).isEqualTo(405);
    assertThat(got.getHeader("Allow")).isEqualTo("POST");
    HttpResponse<Buffer> future = post(token, rpc(4, "ping", null), Map.of("MCP-Protocol-Version", "1999-01-01"));
    assertThat(future.statusCode()).isEqualTo(400);
    assertThat(error(future)).startsWith("Unsupported MCP-Protocol-Version 1999-01-01: this server speaks 2025-11-25");
    HttpResponse<Buffer> note = post(token, new JsonObject().put("jsonrpc", "2.0")
        .put("method", "notifications/initialized"), Map.of());
    assertThat(note.statusCode()).isEqualTo(202);
    assertThat(post(token, rpc(5, "prompts/list", null), Map.of()).bodyAsJsonObject().getJsonObject("error")
        .getInteger("code")).isEqualTo(-32601);
  }

  @Test
  @DisplayName("a question while another runs in its conversation is the tool's error, in Quarry's words; a client that"
      + " cancels its question stops the answer, which is kept as far as it was written")
  void oneTurnAndCancel() throws Exception {
    List<String> me = userWithToken("chat");
    String conversation = ApiOps.CONVERSATION_CREATE.call(bus, new CreateConversation(me.get(0), null, null)).await()
        .id();
    gemini.next().text("Partly ").gate("mcp-cancel").text("and the rest.").usage(10, 3);
    JsonObject ask = rpc(7, "tools/call", new JsonObject().put("name", "ask").put("arguments", new JsonObject()
        .put("conversation_id", conversation).put("question", "Tell me"))
        .put("_meta", new JsonObject().put("progressToken", 70)));
    SseReader answer = SseReader.post(client, node.httpPort(), me.get(1), ask);
    try {
      JsonObject progress = answer.next();
      assertThat(progress.getString("method")).isEqualTo("notifications/progress");
      assertThat(progress.getJsonObject("params").getString("message")).isEqualTo("Partly ");

      try (McpSyncClient second = client(me.get(1), ignored -> { })) {
        second.initialize();
        assertThat(refusal(call(second, "ask", Map.of("conversation_id", conversation, "question", "Also?"))))
            .isEqualTo("Generation already in progress for this conversation");
      }
      assertThat(post(me.get(1), new JsonObject().put("jsonrpc", "2.0").put("method", "notifications/cancelled")
          .put("params", new JsonObject().put("requestId", 7)), Map.of()).statusCode()).isEqualTo(202);
      JsonObject result = answer.next().getJsonObject("result");
      assertThat(result.getJsonObject("structuredContent").getString("status")).isEqualTo("cancelled");
      assertThat(result.getJsonObject("structuredContent").getString("text")).isEqualTo("Partly ");
    } finally {
      gemini.release("mcp-cancel");
    }
  }

  @Test
  @DisplayName("MCP draws on the token's pace: its burst answers, the next request is 429 with Retry-After, naming the"
      + " limit")
  void pace() {
    String token = userWithToken("read").get(1);
    for (int i = 1; i <= PACE_BURST; i++) {
      assertThat(post(token, rpc(i, "ping", null), Map.of()).statusCode()).as("request %d", i).isEqualTo(200);
    }
    HttpResponse<Buffer> past = post(token, rpc(PACE_BURST + 1, "ping", null), Map.of());
    assertThat(past.statusCode()).isEqualTo(429);
    assertThat(Long.parseLong(past.getHeader("Retry-After"))).isPositive();
    assertThat(error(past)).startsWith("Too many requests with this token: it may make 1 a minute after a burst of 40");
  }

  @Test
  @DisplayName("one token at every door: what MCP made, REST (Bearer) and the bridge see with the same token")
  void sameTokenEverywhere() {
    List<String> me = userWithToken("query");
    try (McpSyncClient client = client(me.get(1), ignored -> { })) {
      client.initialize();
      String id = structured(call(client, "create_conversation", Map.of("title", "Everywhere"))).getString("id");
      HttpResponse<Buffer> rest = web.get(node.httpPort(), "127.0.0.1", "/api/conversations/" + id)
          .putHeader("Authorization", "Bearer " + me.get(1)).send().await();
      assertThat(rest.statusCode()).isEqualTo(200);
      assertThat(rest.bodyAsJsonObject().getJsonObject("conversation").getString("title")).isEqualTo("Everywhere");
      BridgeClient bridge = BridgeClient.connect(outside, bridgePort);
      try {
        assertThat(bridge.request("quarry.bridge.login", new JsonObject().put("token", me.get(1))).await()
            .getString("type")).isEqualTo("message");
        JsonObject listed = bridge.request(ApiOps.CONVERSATION_LIST.address(), new JsonObject()).await();
        assertThat(listed.getJsonObject("body").getJsonArray("items")).extracting(c -> ((JsonObject) c)
            .getString("id")).containsExactly(id);
      } finally {
        bridge.close();
      }
    }
  }

  private static JsonObject rpc(int id, String method, JsonObject params) {
    JsonObject message = new JsonObject().put("jsonrpc", "2.0").put("id", id).put("method", method);
    return params == null ? message : message.put("params", params);
  }

  private static HttpResponse<Buffer> post(String token, JsonObject message, Map<String, String> headers) {
    return send(token, message.toBuffer(), headers);
  }

  private static HttpResponse<Buffer> send(String token, Buffer body, Map<String, String> headers) {
    var request = web.post(node.httpPort(), "127.0.0.1", "/mcp").putHeader("Authorization", "Bearer " + token)
        .putHeader("Content-Type", "application/json").putHeader("Accept", "application/json, text/event-stream");
    headers.forEach(request::putHeader);
    return request.sendBuffer(body).await();
  }

  private static String error(HttpResponse<Buffer> response) {
    return response.bodyAsJsonObject().getJsonObject("error").getString("message");
  }

  private static void unauthorized(Throwable e) {
    Throwable cause = e;
    while (cause != null && !(cause instanceof McpHttpClientTransportAuthorizationException)) {
      cause = cause.getCause();
    }
    assertThat(cause).as("an authorization error").isNotNull();
    assertThat(((McpHttpClientTransportAuthorizationException) cause).getResponseInfo().statusCode()).isEqualTo(401);
  }

  @Test
  @DisplayName("no token, an unknown one and a revoked one are refused (401) before any tool: the client cannot start")
  void tokens() {
    List<String> me = userWithToken("chat");
    try (McpSyncClient client = client(me.get(1), ignored -> { })) {
      client.initialize();
      TokenCommand.run(env, "token", "revoke", me.get(2), "--config", dir.resolve("absent.json").toString()).await();
      assertThatThrownBy(() -> call(client, "list_conversations", Map.of())).satisfies(McpClientsTest::unauthorized);
    }
    for (String token : new String[] {null, "qt_not-a-token"}) {
      try (McpSyncClient client = client(token, ignored -> { })) {
        assertThatThrownBy(client::initialize).satisfies(McpClientsTest::unauthorized);
      }
    }
  }
}
