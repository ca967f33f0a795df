package io.quarry.app;

import static io.quarry.testing.Failures.assertFails;
import static io.quarry.testing.Failures.failure;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import io.quarry.bus.Addresses;
import io.quarry.bus.ApiOps;
import io.quarry.bus.ApiOps.ConversationRead;
import io.quarry.bus.ApiOps.CreateConversation;
import io.quarry.bus.ApiOps.ExportQuery;
import io.quarry.bus.ApiOps.Query;
import io.quarry.bus.Bus;
import io.quarry.bus.ChatEvents;
import io.quarry.bus.Conversation;
import io.quarry.bus.Dataset;
import io.quarry.bus.DatasetOps.AddDataset;
import io.quarry.bus.Export;
import io.quarry.bus.Failure;
import io.quarry.bus.LlmOps;
import io.quarry.bus.LlmOps.StartTurn;
import io.quarry.bus.NodeInfo;
import io.quarry.bus.QueryResult;
import io.quarry.bus.Scopes.ConversationRef;
import io.quarry.bus.Scopes.DatasetRef;
import io.quarry.bus.Scopes.UserRef;
import io.quarry.bus.StorageOps;
import io.quarry.bus.StorageOps.Email;
import io.quarry.bus.StorageOps.RenameConversation;
import io.quarry.bus.StorageOps.RenameDataset;
import io.quarry.bus.User;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The public operations ({@link ApiOps}) as an application on the bus calls them: what each answers, its limits at and
 * just past them, its failure codes, and that another user's conversation, dataset or answer is NOT_FOUND.
 */
class PublicApiTest extends ChatTestBase {

  Bus bus;
  String me;
  /** A second user, made as sign-up makes one, whose things must stay out of reach. */
  String other;
  String otherEmail;

  @Override
  boolean sharesNode() {
    return true;
  }

  /** The budget of changes at the product's defaults, which shared nodes otherwise lift. */
  @Override
  Map<String, String> env() {
    return Map.of("QUARRY_CHAT_WRITE_BURST", "100", "QUARRY_CHAT_WRITES_PER_MINUTE", "120");
  }

  @BeforeEach
  void users() {
    bus = new Bus(chat.node.vertx());
    me = ApiOps.USER_LOCAL.call(bus, null).await().id();
    otherEmail = "other-" + UUID.randomUUID() + "@example.com";
    String invite = StorageOps.INVITE_CREATE.call(bus, null).await().code();
    other = StorageOps.USER_CREATE.call(bus, new StorageOps.NewUser(otherEmail, "not-a-hash", invite)).await().id();
  }

  @Test
  @DisplayName("api.ping answers which web node is there, with its version and roles, whatever the body")
  void ping() {
    NodeInfo pong = ApiOps.PING.call(bus, null).await();
    JsonObject health = chat.send(io.vertx.core.http.HttpMethod.GET, "/api/health/nodes", null).bodyAsJsonObject();
    assertThat(health.encode()).contains(pong.id());
    assertThat(pong.roles()).contains("web");
    assertThat(pong.version()).isNotBlank();
  }

  @Test
  @DisplayName("users: the local user is the browser's; a user is found by email, and an unknown email is NOT_FOUND")
  void users_() {
    assertThat(me).isEqualTo(chat.send(io.vertx.core.http.HttpMethod.GET, "/api/me", null).bodyAsJsonObject()
        .getString("id"));
    User found = ApiOps.USER_FIND.call(bus, new Email(otherEmail)).await();
    assertThat(found.id()).isEqualTo(other);
    assertThat(found.toJson().fieldNames()).containsExactlyInAnyOrder("id", "email", "created_at");
    assertThat(Failure.classify(failure(ApiOps.USER_FIND.call(bus,
        new Email("nobody-" + UUID.randomUUID() + "@example.com"))))).isEqualTo(Failure.NOT_FOUND);
  }

  @Test
  @DisplayName("conversations: created (a title at its limit, a default, an id sent twice makes one), listed, read,"
      + " renamed and deleted; past the limits BAD_REQUEST; an unknown user cannot own one")
  void conversations() {
    String title = "t".repeat(ApiOps.MAX_TITLE);
    Conversation made = create(me, null, title);
    assertThat(made.title()).isEqualTo(title);
    assertThat(create(me, null, "  ").title()).isEqualTo(ApiOps.DEFAULT_TITLE);
    String id = UUID.randomUUID().toString();
    assertThat(create(me, id, "once").id()).isEqualTo(id);
    assertThat(create(me, id, "once").id()).isEqualTo(id);
    assertThat(ApiOps.CONVERSATION_LIST.call(bus, new UserRef(me)).await().stream().map(Conversation::id)
        .filter(id::equals)).hasSize(1);
    assertFails(createFuture(me, null, title + "t"), Failure.BAD_REQUEST, "Field 'title' must be at most 200 characters");
    assertFails(createFuture(me, "not-a-uuid", null), Failure.BAD_REQUEST, "Field 'id' must be a UUID");
    assertThat(Failure.classify(failure(createFuture(UUID.randomUUID().toString(), null, null))))
        .isEqualTo(Failure.NOT_FOUND);

    ConversationRead read = ApiOps.CONVERSATION_GET.call(bus, new ConversationRef(me, made.id())).await();
    assertThat(read.conversation().id()).isEqualTo(made.id());
    assertThat(read.messages()).isEmpty();
    assertThat(ApiOps.CONVERSATION_RENAME.call(bus, new RenameConversation(me, made.id(), " Sales ")).await().title())
        .isEqualTo("Sales");
    assertFails(ApiOps.CONVERSATION_RENAME.call(bus, new RenameConversation(me, made.id(), title + "t")),
        Failure.BAD_REQUEST, "Field 'title' must be at most 200 characters");
    ApiOps.CONVERSATION_DELETE.call(bus, new ConversationRef(me, made.id())).await();
    assertThat(Failure.classify(failure(ApiOps.CONVERSATION_GET.call(bus, new ConversationRef(me, made.id())))))
        .isEqualTo(Failure.NOT_FOUND);
  }

  @Test
  @DisplayName("a conversation id another user's conversation has is CONFLICT, the same whoever owns it, with no error"
      + " logged and nothing of theirs changed; an unused id is made, the owner's own id answers their conversation")
  void takenId() {
    String theirs = create(other, UUID.randomUUID().toString(), "Theirs").id();
    String mine = create(me, UUID.randomUUID().toString(), "Mine").id();
    List<ILoggingEvent> logged = new CopyOnWriteArrayList<>();
    AppenderBase<ILoggingEvent> appender = new AppenderBase<>() {
      @Override
      protected void append(ILoggingEvent event) {
        // The node logs on its own meanwhile; a failed create logs its address with the SQL error as cause.
        if (event.getLevel().isGreaterOrEqual(Level.WARN) && (event.getThrowableProxy() != null
            || event.getFormattedMessage().contains("conversation.create"))) {
          logged.add(event);
        }
      }
    };
    appender.start();
    Logger root = (Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME);
    root.addAppender(appender);
    try {
      assertFails(createFuture(me, theirs, "Mine now"), Failure.CONFLICT,
          "Field 'id' is already in use: choose another UUID");
      assertFails(createFuture(other, mine, "Theirs now"), Failure.CONFLICT,
          "Field 'id' is already in use: choose another UUID");
    } finally {
      root.detachAppender(appender);
    }
    assertThat(logged).extracting(ILoggingEvent::getFormattedMessage).isEmpty();
    assertThat(create(me, mine, "Again").title()).isEqualTo("Mine");
    assertThat(ApiOps.CONVERSATION_GET.call(bus, new ConversationRef(other, theirs)).await().conversation().title())
        .isEqualTo("Theirs");
    assertThat(ApiOps.CONVERSATION_LIST.call(bus, new UserRef(me)).await()).extracting(Conversation::id)
        .doesNotContain(theirs);
  }

  @Test
  @DisplayName("another user's conversation is NOT_FOUND to every operation that names it, and is not listed")
  void othersConversation() {
    ConversationRef theirs = new ConversationRef(other, conversation);
    String url = chat.files.url("/people.parquet");
    List<Future<?>> asked = List.of(
        ApiOps.CONVERSATION_GET.call(bus, theirs),
        ApiOps.CONVERSATION_RENAME.call(bus, new RenameConversation(other, conversation, "mine")),
        ApiOps.CONVERSATION_DELETE.call(bus, theirs),
        ApiOps.DATASET_ADD.call(bus, new AddDataset(other, conversation, url)),
        ApiOps.DATASET_LIST.call(bus, theirs),
        ApiOps.QUERY_RUN.call(bus, new Query(other, conversation, "SELECT 1")),
        ApiOps.QUERY_EXPORT.call(bus, new ExportQuery(other, conversation, "SELECT 1", "csv")),
        ApiOps.TURN_START.call(bus, new StartTurn(other, conversation, "Hello")),
        ApiOps.TURN_CONTINUE.call(bus, new LlmOps.ContinueTurn(other, conversation, conversation)),
        ApiOps.TURN_STOP.call(bus, theirs));
    for (Future<?> each : asked) {
      assertThat(Failure.classify(failure(each))).isEqualTo(Failure.NOT_FOUND);
    }
    assertThat(ApiOps.CONVERSATION_LIST.call(bus, new UserRef(other)).await()).isEmpty();
    assertThat(ApiOps.CONVERSATION_GET.call(bus, new ConversationRef(me, conversation)).await().conversation().title())
        .isNotEqualTo("mine");
  }

  @Test
  @DisplayName("changes over the bus draw on the user's budget of changes (chat.writeBurst, 100): the last within it"
      + " goes ahead, the next is RATE_LIMITED with when to try again; reads do not count")
  void changesBudget() {
    String theirs = create(other, null, "Theirs").id();
    Throwable refused = null;
    int renamed = 0;
    // The bucket refills at chat.writesPerMinute while this runs: bounded, it ends refused well before 300.
    while (refused == null && renamed < 300) {
      Future<?> rename = ApiOps.CONVERSATION_RENAME.call(bus,
          new RenameConversation(other, theirs, "Take " + (renamed + 1)));
      if (renamed % 10 == 0) {
        ApiOps.CONVERSATION_LIST.call(bus, new UserRef(other)).await();
      }
      try {
        rename.await();
        renamed++;
      } catch (RuntimeException e) {
        refused = e;
      }
    }
    assertThat(renamed).as("changes within the burst, the conversation's creation being the first")
        .isGreaterThanOrEqualTo(99);
    assertThat(Failure.classify(refused)).isEqualTo(Failure.RATE_LIMITED);
    assertThat(Failure.messageOf(refused)).startsWith("Too many changes in a short time; try again in ");
    assertThat(io.quarry.bus.BusFailure.of(refused).resetsInSeconds()).isPresent();
    assertThat(ApiOps.CONVERSATION_GET.call(bus, new ConversationRef(other, theirs)).await().conversation().title())
        .isEqualTo("Take " + renamed);
  }

  @Test
  @DisplayName("a request whose fields are not of their types, or that is not a JSON object, is BAD_REQUEST by name,"
      + " not an internal error")
  void wrongTypes() {
    var raw = chat.node.vertx().eventBus();
    assertFails(raw.request(Addresses.API_CONVERSATION_LIST, new JsonObject().put("user_id", 5)), Failure.BAD_REQUEST,
        "Field 'user_id' must be a string");
    assertFails(raw.request(Addresses.API_DATASET_ADD, new JsonObject().put("user_id", me)
            .put("conversation_id", 7).put("url", "https://example.com/x.parquet")), Failure.BAD_REQUEST,
        "Field 'conversation_id' must be a string");
    assertFails(raw.request(Addresses.API_USAGE_GET, "me"), Failure.BAD_REQUEST,
        "A field of the request is not of its type (api.usage.get)");
  }

  @Test
  @DisplayName("datasets: added through the pipeline (its exact messages), listed, renamed within the rules, refreshed"
      + " and removed; another user's dataset is NOT_FOUND")
  void datasets() {
    Dataset added = ApiOps.DATASET_ADD.call(bus, new AddDataset(me, conversation, chat.files.url("/people.parquet")))
        .await();
    assertThat(added.status()).isEqualTo("ready");
    assertFails(ApiOps.DATASET_ADD.call(bus, new AddDataset(me, conversation, "not a url")), Failure.BAD_REQUEST,
        "Invalid URL format");
    assertThat(ApiOps.DATASET_LIST.call(bus, new ConversationRef(me, conversation)).await()).extracting(Dataset::id)
        .containsExactly(added.id());
    String name = "p".repeat(ApiOps.MAX_NAME);
    assertFails(ApiOps.DATASET_RENAME.call(bus, new RenameDataset(me, conversation, added.id(), name + "p")),
        Failure.BAD_REQUEST, "Field 'name' must be at most 200 characters");
    assertThat(Failure.classify(failure(ApiOps.DATASET_RENAME.call(bus,
        new RenameDataset(me, conversation, added.id(), "bad name"))))).isEqualTo(Failure.BAD_REQUEST);
    assertThat(ApiOps.DATASET_RENAME.call(bus, new RenameDataset(me, conversation, added.id(), "people")).await()
        .name()).isEqualTo("people");
    DatasetRef theirs = new DatasetRef(other, conversation, added.id());
    for (Future<?> each : List.of(ApiOps.DATASET_REFRESH.call(bus, theirs), ApiOps.DATASET_REMOVE.call(bus, theirs),
        ApiOps.DATASET_RENAME.call(bus, new RenameDataset(other, conversation, added.id(), "mine")))) {
      assertThat(Failure.classify(failure(each))).isEqualTo(Failure.NOT_FOUND);
    }
    DatasetRef mine = new DatasetRef(me, conversation, added.id());
    assertThat(ApiOps.DATASET_REFRESH.call(bus, mine).await().status()).isEqualTo("ready");
    assertThat(ApiOps.DATASET_REMOVE.call(bus, mine).await().id()).isEqualTo(added.id());
    assertThat(ApiOps.DATASET_LIST.call(bus, new ConversationRef(me, conversation)).await()).isEmpty();
  }

  @Test
  @DisplayName("queries: SQL at its length limit runs, past it BAD_REQUEST; a wrong column is SQL; an export is read"
      + " in chunks from its address and needs a known format")
  void queries() {
    chat.addDataset(conversation, "/people.parquet");
    String sql = "SELECT count(*) AS n FROM table1";
    String padded = sql + " ".repeat(ApiOps.MAX_SQL - sql.length());
    QueryResult result = ApiOps.QUERY_RUN.call(bus, new Query(me, conversation, padded)).await();
    assertThat(result.rowValues().getJsonArray(0).getLong(0)).isEqualTo(100);
    assertFails(ApiOps.QUERY_RUN.call(bus, new Query(me, conversation, padded + " ")), Failure.BAD_REQUEST,
        "Field 'sql' must be at most 100,000 characters");
    assertThat(Failure.classify(failure(ApiOps.QUERY_RUN.call(bus, new Query(me, conversation,
        "SELECT salary FROM table1"))))).isEqualTo(Failure.SQL);
    QueryResult stored = ApiOps.RESULT_GET.call(bus, new StorageOps.ResultRef(me, result.id())).await();
    assertThat(stored.rowValues()).isEqualTo(result.rowValues());
    assertThat(stored.sql()).isEqualTo(padded);
    assertFails(ApiOps.RESULT_GET.call(bus, new StorageOps.ResultRef(other, result.id())), Failure.NOT_FOUND,
        "Result not found");

    QueryResult exported = ApiOps.QUERY_EXPORT.call(bus, new ExportQuery(me, conversation,
        "SELECT name FROM table1 ORDER BY name", "csv")).await();
    Export.File file = Export.File.fromJson(exported.export());
    assertThat(file.rows()).isEqualTo(100);
    Buffer bytes = chat.node.vertx().eventBus().<Buffer>request(file.address(), Export.chunkAt(0)).await().body();
    assertThat(bytes.length()).isEqualTo(file.bytes());
    assertThat(bytes.toString().lines().count()).isEqualTo(101);
    chat.node.vertx().eventBus().request(file.address(), Export.done()).await();
    assertFails(ApiOps.QUERY_EXPORT.call(bus, new ExportQuery(me, conversation, "SELECT 1", "xlsx")),
        Failure.BAD_REQUEST, "Field 'format' must be csv, parquet or json");
  }

  @Test
  @DisplayName("turns: a question at its length limit is answered on the user's events, past it BAD_REQUEST; usage"
      + " counts the answer's tokens; stopping with nothing running says so")
  void turns() throws Exception {
    LinkedBlockingQueue<JsonObject> events = new LinkedBlockingQueue<>();
    chat.node.vertx().eventBus().<JsonObject>consumer(Addresses.chatEvents(me), m -> events.add(m.body()))
        .completion().await();
    long before = ApiOps.USAGE_GET.call(bus, new UserRef(me)).await().tokensUsed();
    chat.gemini.next().answer("Hello from the bus.").usage(40, 2);
    String question = "q".repeat(ApiOps.MAX_QUESTION);
    String messageId = ApiOps.TURN_START.call(bus, new StartTurn(me, conversation, question)).await().messageId();
    StringBuilder answer = new StringBuilder();
    for (JsonObject e = events.poll(30, TimeUnit.SECONDS); ; e = events.poll(30, TimeUnit.SECONDS)) {
      assertThat(e).as("an event before chat_complete").isNotNull();
      if (ChatEvents.CHAT_TOKEN.equals(e.getString("type"))) {
        answer.append(e.getString("token"));
      }
      if (ChatEvents.CHAT_COMPLETE.equals(e.getString("type"))) {
        assertThat(e.getString("message_id")).isEqualTo(messageId);
        break;
      }
    }
    assertThat(answer).hasToString("Hello from the bus.");
    assertFails(ApiOps.TURN_START.call(bus, new StartTurn(me, conversation, question + "q")), Failure.BAD_REQUEST,
        "Field 'content' must be at most 10,000 characters");
    assertThat(Failure.classify(failure(ApiOps.TURN_START.call(bus, new StartTurn(me, conversation, "")))))
        .isEqualTo(Failure.BAD_REQUEST);
    assertThat(ApiOps.TURN_STOP.call(bus, new ConversationRef(me, conversation)).await().stopped()).isFalse();
    assertThat(ApiOps.USAGE_GET.call(bus, new UserRef(me)).await().tokensUsed()).isEqualTo(before + 42);
  }

  private Conversation create(String user, String id, String title) {
    return createFuture(user, id, title).await();
  }

  private Future<Conversation> createFuture(String user, String id, String title) {
    return ApiOps.CONVERSATION_CREATE.call(bus, new CreateConversation(user, id, title));
  }
}
