package io.quarry.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.bus.ChatMessage;
import io.quarry.bus.Conversation;
import io.quarry.bus.Credentials;
import io.quarry.bus.Dataset;
import io.quarry.bus.Failure;
import io.quarry.bus.QueryResult;
import io.quarry.bus.RowsJson;
import io.quarry.bus.StorageClient;
import io.quarry.bus.TokenUsage;
import io.quarry.bus.Timestamps;
import io.quarry.bus.User;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(VertxExtension.class)
class StorageVerticleTest {

  @TempDir
  Path dataDir;

  StorageClient storage;
  User alice;
  User bob;

  @BeforeEach
  void deploy(Vertx vertx) {
    deployStorage(vertx).await();
    storage = new StorageClient(vertx.eventBus());
    alice = newUser(vertx, "alice@example.com");
    bob = newUser(vertx, "bob@example.com");
  }

  private Future<String> deployStorage(Vertx vertx) {
    return vertx.deployVerticle(new StorageVerticle(),
        new DeploymentOptions().setConfig(new JsonObject().put("dataDir", dataDir.toString())));
  }

  private User newUser(Vertx vertx, String email) {
    String invite = storage.createInvite().await();
    return storage.createUser(email, "hash-of-" + email, invite).await();
  }

  private static ReplyException failure(Future<?> future) {
    Throwable t = catchFailure(future);
    assertThat(t).isInstanceOf(ReplyException.class);
    return (ReplyException) t;
  }

  private static Throwable catchFailure(Future<?> future) {
    try {
      future.await();
    } catch (Throwable t) {
      return t;
    }
    throw new AssertionError("expected a failure");
  }

  private static void assertFails(Future<?> future, Failure code, String message) {
    ReplyException e = failure(future);
    assertThat(Failure.classify(e)).isEqualTo(code);
    assertThat(e.getMessage()).isEqualTo(message);
  }

  private Connection sqlite() throws SQLException {
    return DriverManager.getConnection("jdbc:sqlite:" + dataDir.resolve(StorageVerticle.DATABASE_FILE));
  }

  private long count(String sql) throws SQLException {
    try (Connection c = sqlite(); ResultSet rs = c.createStatement().executeQuery(sql)) {
      return rs.next() ? rs.getLong(1) : -1;
    }
  }

  private String schemaDump() throws SQLException {
    StringBuilder out = new StringBuilder();
    try (Connection c = sqlite();
         ResultSet rs = c.createStatement().executeQuery("SELECT type, name, sql FROM sqlite_master ORDER BY name")) {
      while (rs.next()) {
        out.append(rs.getString(1)).append(' ').append(rs.getString(2)).append(' ').append(rs.getString(3)).append('\n');
      }
    }
    return out.toString();
  }

  @Test
  @DisplayName("migrations run again on a migrated file change neither schema nor data")
  void migrationsAreIdempotent(Vertx vertx) throws Exception {
    Conversation c = storage.createConversation(alice.id(), "Kept").await();
    String schemaBefore = schemaDump();
    assertThat(count("PRAGMA user_version")).isEqualTo(Migrations.latest());

    for (String id : new ArrayList<>(vertx.deploymentIDs())) {
      vertx.undeploy(id).await();
    }
    deployStorage(vertx).await();

    assertThat(schemaDump()).isEqualTo(schemaBefore);
    assertThat(count("PRAGMA user_version")).isEqualTo(Migrations.latest());
    assertThat(storage.conversation(alice.id(), c.id()).await().title()).isEqualTo("Kept");
    assertThat(count("SELECT COUNT(*) FROM users")).isEqualTo(2);
  }

  @Test
  @DisplayName("the database runs in WAL mode with foreign keys enforced")
  void walAndForeignKeys() throws Exception {
    try (Connection c = sqlite(); ResultSet rs = c.createStatement().executeQuery("PRAGMA journal_mode")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString(1)).isEqualToIgnoringCase("wal");
    }
    Conversation c = storage.createConversation(alice.id(), "Cascade").await();
    storage.appendMessage(alice.id(), ChatMessage.user(c.id(), "hello")).await();
    storage.deleteConversation(alice.id(), c.id()).await();
    assertThat(count("SELECT COUNT(*) FROM messages")).isZero();
  }

  @Test
  @DisplayName("a database in an unwritable place fails deployment with a message naming the file")
  void unwritableDatabase(Vertx vertx) throws Exception {
    Path blocker = dataDir.resolve("not-a-directory");
    java.nio.file.Files.writeString(blocker, "a file where a directory should be");
    Throwable t = catchFailure(vertx.deployVerticle(new StorageVerticle(),
        new DeploymentOptions().setConfig(new JsonObject().put("dataDir", blocker.resolve("sub").toString()))));
    assertThat(t.getMessage()).contains("not-a-directory");
  }

  @Test
  @DisplayName("the local user is created once and found again")
  void localUser() {
    User first = storage.localUser().await();
    User second = storage.localUser().await();
    assertThat(second.id()).isEqualTo(first.id());
    assertThat(first.email()).isNull();
  }

  @Test
  @DisplayName("sign-up consumes its invite: a used or unknown invite is refused, and a taken email uses its invite up"
      + " with the same answer, so one invite cannot probe for accounts")
  void usersAndInvites(Vertx vertx) throws Exception {
    String invite = storage.createInvite().await();
    User carol = storage.createUser("carol@example.com", "h", invite).await();
    assertThat(storage.user(carol.id()).await().email()).isEqualTo("carol@example.com");
    assertFails(storage.createUser("dave@example.com", "h", invite), Failure.BAD_REQUEST,
        "Invalid or already used referral key");
    assertFails(storage.createUser("dave@example.com", "h", "no-such-invite"), Failure.BAD_REQUEST,
        "Invalid or already used referral key");
    String fresh = storage.createInvite().await();
    assertThat(storage.inviteUsable(fresh).await()).isTrue();
    assertFails(storage.createUser("CAROL@example.com", "h", fresh), Failure.BAD_REQUEST,
        "Invalid or already used referral key");
    assertThat(storage.inviteUsable(fresh).await()).isFalse();
    assertFails(storage.createUser("erin@example.com", "h", fresh), Failure.BAD_REQUEST,
        "Invalid or already used referral key");
    assertThat(storage.inviteUsable("no-such-invite").await()).isFalse();
    assertThat(count("SELECT COUNT(*) FROM users WHERE email IN ('dave@example.com', 'erin@example.com')")).isZero();
    assertThat(count("SELECT COUNT(*) FROM users WHERE email = 'carol@example.com' COLLATE NOCASE")).isEqualTo(1);

    Credentials credentials = storage.credentials("carol@example.com").await();
    assertThat(credentials.passwordHash()).isEqualTo("h");
    assertThat(credentials.user().id()).isEqualTo(carol.id());
    assertFails(storage.credentials("nobody@example.com"), Failure.NOT_FOUND, "User not found");
  }

  @Test
  @DisplayName("a session finds its user until it expires or is deleted")
  void sessions() {
    String later = Timestamps.format(Instant.now().plus(Duration.ofDays(7)));
    storage.createSession(alice.id(), "live", later).await();
    storage.createSession(alice.id(), "expired", Timestamps.format(Instant.now().minusSeconds(1))).await();
    assertThat(storage.sessionUser("live").await().id()).isEqualTo(alice.id());
    assertFails(storage.sessionUser("expired"), Failure.NOT_FOUND, "Session not found");
    storage.deleteSession("live").await();
    assertFails(storage.sessionUser("live"), Failure.NOT_FOUND, "Session not found");
  }

  @Test
  @DisplayName("conversations are created, listed newest first, renamed and deleted")
  void conversationLifecycle() {
    Conversation first = storage.createConversation(alice.id(), "First").await();
    Conversation second = storage.createConversation(alice.id(), "Second").await();
    assertThat(storage.conversations(alice.id()).await()).extracting(Conversation::id)
        .containsExactly(second.id(), first.id());

    Conversation renamed = storage.renameConversation(alice.id(), first.id(), "Renamed").await();
    assertThat(renamed.title()).isEqualTo("Renamed");
    assertThat(storage.conversations(alice.id()).await()).extracting(Conversation::id)
        .containsExactly(first.id(), second.id());

    storage.deleteConversation(alice.id(), first.id()).await();
    assertFails(storage.conversation(alice.id(), first.id()), Failure.NOT_FOUND, "Conversation not found");
    assertThat(storage.conversations(bob.id()).await()).isEmpty();
  }

  @Test
  @DisplayName("another user can neither read, rename, delete nor write into a conversation: not found, nothing changed")
  void isolation() throws Exception {
    Conversation c = storage.createConversation(alice.id(), "Private").await();
    storage.appendMessage(alice.id(), ChatMessage.user(c.id(), "secret")).await();
    Dataset d = storage.claimDataset(alice.id(), c.id(), "https://example.com/a.parquet", 5).await();
    QueryResult r = storage.saveResult(alice.id(), result(c.id(), 3)).await();

    assertFails(storage.conversation(bob.id(), c.id()), Failure.NOT_FOUND, "Conversation not found");
    assertFails(storage.renameConversation(bob.id(), c.id(), "Mine"), Failure.NOT_FOUND, "Conversation not found");
    assertFails(storage.deleteConversation(bob.id(), c.id()), Failure.NOT_FOUND, "Conversation not found");
    assertFails(storage.messages(bob.id(), c.id()), Failure.NOT_FOUND, "Conversation not found");
    assertFails(storage.appendMessage(bob.id(), ChatMessage.user(c.id(), "intrusion")), Failure.NOT_FOUND,
        "Conversation not found");
    assertFails(storage.datasets(bob.id(), c.id()), Failure.NOT_FOUND, "Conversation not found");
    assertFails(storage.claimDataset(bob.id(), c.id(), "https://example.com/b.parquet", 5), Failure.NOT_FOUND,
        "Conversation not found");
    assertFails(storage.dataset(bob.id(), c.id(), d.id()), Failure.NOT_FOUND, "Dataset not found");
    assertFails(storage.renameDataset(bob.id(), c.id(), d.id(), "stolen"), Failure.NOT_FOUND, "Dataset not found");
    assertFails(storage.updateDataset(bob.id(), d.failed("x")), Failure.NOT_FOUND, "Dataset not found");
    assertFails(storage.deleteDataset(bob.id(), c.id(), d.id()), Failure.NOT_FOUND, "Dataset not found");
    assertFails(storage.result(bob.id(), r.id()), Failure.NOT_FOUND, "Result not found");
    assertFails(storage.saveResult(bob.id(), result(c.id(), 1)), Failure.NOT_FOUND, "Conversation not found");

    assertThat(storage.conversation(alice.id(), c.id()).await().title()).isEqualTo("Private");
    assertThat(count("SELECT COUNT(*) FROM messages")).isEqualTo(1);
    assertThat(count("SELECT COUNT(*) FROM datasets WHERE name = 'table1' AND status = 'loading'")).isEqualTo(1);
    assertThat(count("SELECT COUNT(*) FROM query_results")).isEqualTo(1);
  }

  @Test
  @DisplayName("messages come back in the order written, with their tool rounds, SQL, results, charts and tokens")
  void messages() {
    Conversation c = storage.createConversation(alice.id(), "Chat").await();
    storage.appendMessage(alice.id(), ChatMessage.user(c.id(), "How many rows?")).await();
    ChatMessage answer = new ChatMessage(null, c.id(), ChatMessage.ASSISTANT, "There are 3 rows.",
        new JsonArray().add(new JsonObject().put("tool", "execute_sql")), new JsonArray().add("SELECT 1"),
        new JsonArray().add("r1"), new JsonArray().add(new JsonObject().put("chart_type", "bar")), 120, 30, "complete",
        null, null);
    storage.appendMessage(alice.id(), answer).await();

    List<ChatMessage> messages = storage.messages(alice.id(), c.id()).await();
    assertThat(messages).extracting(ChatMessage::role).containsExactly("user", "assistant");
    ChatMessage stored = messages.get(1);
    assertThat(stored.sql().getString(0)).isEqualTo("SELECT 1");
    assertThat(stored.resultIds().getString(0)).isEqualTo("r1");
    assertThat(stored.charts().getJsonObject(0).getString("chart_type")).isEqualTo("bar");
    assertThat(stored.toolRounds().getJsonObject(0).getString("tool")).isEqualTo("execute_sql");
    assertThat(stored.inputTokens() + stored.outputTokens()).isEqualTo(150);
    assertThat(stored.id()).isNotBlank();
    assertThat(stored.createdAt()).isNotBlank();
  }

  @Test
  @DisplayName("an answer saved again under its id is replaced in place: one message, the newest text, status and notice")
  void answerSavedAsItGrows() {
    Conversation c = storage.createConversation(alice.id(), "Chat").await();
    storage.appendMessage(alice.id(), ChatMessage.user(c.id(), "Tell me")).await();
    String id = UUID.randomUUID().toString();
    storage.appendMessage(alice.id(), answer(id, c.id(), "Par", ChatMessage.STREAMING, null)).await();
    storage.appendMessage(alice.id(), ChatMessage.user(c.id(), "not yet: the answer keeps its place")).await();
    storage.appendMessage(alice.id(), answer(id, c.id(), "Partial answer", ChatMessage.COMPLETE, "Cut off.")).await();

    List<ChatMessage> messages = storage.messages(alice.id(), c.id()).await();
    assertThat(messages).extracting(ChatMessage::content)
        .containsExactly("Tell me", "Partial answer", "not yet: the answer keeps its place");
    assertThat(messages.get(1).status()).isEqualTo(ChatMessage.COMPLETE);
    assertThat(messages.get(1).notice()).isEqualTo("Cut off.");
    Conversation other = storage.createConversation(bob.id(), "Bob's").await();
    storage.appendMessage(bob.id(), answer(id, other.id(), "overwritten?", ChatMessage.COMPLETE, null)).await();
    assertThat(storage.messages(alice.id(), c.id()).await().get(1).content()).isEqualTo("Partial answer");
    assertThat(storage.messages(bob.id(), other.id()).await()).isEmpty();
  }

  @Test
  @DisplayName("at start, an answer a dead server left streaming is interrupted and a dataset left loading fails with Retry")
  void settlesWhatADeadServerLeft(Vertx vertx) {
    Conversation c = storage.createConversation(alice.id(), "Chat").await();
    String streaming = UUID.randomUUID().toString();
    storage.appendMessage(alice.id(), answer(streaming, c.id(), "Half an answ", ChatMessage.STREAMING, null)).await();
    storage.appendMessage(alice.id(), answer(null, c.id(), "Whole.", ChatMessage.COMPLETE, null)).await();
    Dataset loading = storage.claimDataset(alice.id(), c.id(), "https://x.test/1.parquet", 5).await();
    Dataset ready = storage.claimDataset(alice.id(), c.id(), "https://x.test/2.parquet", 5).await();
    storage.updateDataset(alice.id(), new Dataset(ready.id(), c.id(), ready.url(), ready.name(), 3L, 1, new JsonArray(),
        Dataset.READY, null, 10L, null, null, null)).await();

    for (String id : new ArrayList<>(vertx.deploymentIDs())) {
      vertx.undeploy(id).await();
    }
    deployStorage(vertx).await();

    List<ChatMessage> messages = storage.messages(alice.id(), c.id()).await();
    assertThat(messages).extracting(ChatMessage::status).containsExactly(ChatMessage.INTERRUPTED, ChatMessage.COMPLETE);
    assertThat(messages.get(0).content()).isEqualTo("Half an answ");
    assertThat(messages.get(0).notice()).isEqualTo("This answer was interrupted when the server stopped.");
    assertThat(storage.dataset(alice.id(), c.id(), loading.id()).await()).satisfies(d -> {
      assertThat(d.status()).isEqualTo(Dataset.ERROR);
      assertThat(d.errorMessage()).isEqualTo(
          "Adding this dataset was interrupted when the server stopped; retry to add it again");
    });
    assertThat(storage.dataset(alice.id(), c.id(), ready.id()).await().status()).isEqualTo(Dataset.READY);
  }

  @Test
  @DisplayName("expired sessions are purged when storage starts (and hourly): only live ones stay")
  void purgesExpiredSessions(Vertx vertx) throws Exception {
    storage.createSession(alice.id(), "expired", "2020-01-01T00:00:00.000Z").await();
    storage.createSession(alice.id(), "live", "2999-01-01T00:00:00.000Z").await();
    assertThat(count("SELECT COUNT(*) FROM sessions WHERE token_hash = 'expired'")).isEqualTo(1);
    for (String id : new ArrayList<>(vertx.deploymentIDs())) {
      vertx.undeploy(id).await();
    }
    deployStorage(vertx).await();
    assertThat(count("SELECT COUNT(*) FROM sessions WHERE token_hash = 'expired'")).isZero();
    assertThat(storage.sessionUser("live").await().id()).isEqualTo(alice.id());
  }

  private static ChatMessage answer(String id, String conversationId, String content, String status, String notice) {
    return new ChatMessage(id, conversationId, ChatMessage.ASSISTANT, content, null, null, null, null, 0, 0, status,
        notice, null);
  }

  @Test
  @DisplayName("a message with an unknown role is refused with a message naming the field")
  void messageRole() {
    Conversation c = storage.createConversation(alice.id(), "Chat").await();
    ChatMessage odd = new ChatMessage(null, c.id(), "system", "x", null, null, null, null, 0, 0, "complete", null, null);
    ReplyException e = failure(storage.appendMessage(alice.id(), odd));
    assertThat(Failure.classify(e)).isEqualTo(Failure.BAD_REQUEST);
    assertThat(e.getMessage()).contains("'message'");
  }

  @Test
  @DisplayName("datasets are named table1, table2, ... in order; a name still taken is never reused")
  void datasetNaming() {
    Conversation c = storage.createConversation(alice.id(), "Data").await();
    Dataset one = storage.claimDataset(alice.id(), c.id(), "https://x.test/1.parquet", 5).await();
    Dataset two = storage.claimDataset(alice.id(), c.id(), "https://x.test/2.parquet", 5).await();
    assertThat(List.of(one.name(), two.name())).containsExactly("table1", "table2");
    assertThat(one.status()).isEqualTo(Dataset.LOADING);

    storage.deleteDataset(alice.id(), c.id(), one.id()).await();
    Dataset three = storage.claimDataset(alice.id(), c.id(), "https://x.test/3.parquet", 5).await();
    assertThat(three.name()).isEqualTo("table3");
    assertThat(storage.datasets(alice.id(), c.id()).await()).extracting(Dataset::name)
        .containsExactly("table2", "table3");
  }

  @Test
  @DisplayName("the same URL twice is refused with 'This dataset is already loaded'; other conversations may load it")
  void duplicateUrl() {
    Conversation c = storage.createConversation(alice.id(), "Data").await();
    Conversation other = storage.createConversation(alice.id(), "Other").await();
    storage.claimDataset(alice.id(), c.id(), "https://x.test/1.parquet", 5).await();
    assertFails(storage.claimDataset(alice.id(), c.id(), "https://x.test/1.parquet", 5), Failure.CONFLICT,
        "This dataset is already loaded");
    assertThat(storage.claimDataset(alice.id(), c.id(), "https://x.test/1.parquet?v=2", 5).await().name())
        .isEqualTo("table2");
    assertThat(storage.claimDataset(alice.id(), other.id(), "https://x.test/1.parquet", 5).await().name())
        .isEqualTo("table1");
  }

  @Test
  @DisplayName("the fifth dataset is accepted, the sixth refused with 'Maximum 5 datasets reached', removal frees a slot")
  void datasetLimit() {
    Conversation c = storage.createConversation(alice.id(), "Data").await();
    List<Dataset> added = new ArrayList<>();
    for (int i = 1; i <= 5; i++) {
      added.add(storage.claimDataset(alice.id(), c.id(), "https://x.test/" + i + ".parquet", 5).await());
    }
    assertFails(storage.claimDataset(alice.id(), c.id(), "https://x.test/6.parquet", 5), Failure.CONFLICT,
        "Maximum 5 datasets reached");
    storage.deleteDataset(alice.id(), c.id(), added.get(2).id()).await();
    assertThat(storage.claimDataset(alice.id(), c.id(), "https://x.test/6.parquet", 5).await().name())
        .isEqualTo("table6");
  }

  @Test
  @DisplayName("ten concurrent claims in one conversation yield exactly five datasets with distinct names")
  void concurrentClaims() {
    Conversation c = storage.createConversation(alice.id(), "Race").await();
    List<Future<Dataset>> claims = IntStream.range(0, 10)
        .mapToObj(i -> storage.claimDataset(alice.id(), c.id(), "https://x.test/" + i + ".parquet", 5))
        .toList();
    Future.join(claims).otherwiseEmpty().await();
    List<String> names = claims.stream().filter(Future::succeeded).map(f -> f.result().name()).toList();
    assertThat(names).hasSize(5).doesNotHaveDuplicates();
    assertThat(claims.stream().filter(Future::failed))
        .allSatisfy(f -> assertThat(f.cause().getMessage()).isEqualTo("Maximum 5 datasets reached"));
  }

  @Test
  @DisplayName("a dataset is updated to ready with its schema, and renamed only to a name free in its conversation")
  void datasetUpdateAndRename() {
    Conversation c = storage.createConversation(alice.id(), "Data").await();
    Dataset one = storage.claimDataset(alice.id(), c.id(), "https://x.test/1.parquet", 5).await();
    Dataset two = storage.claimDataset(alice.id(), c.id(), "https://x.test/2.parquet", 5).await();
    JsonArray columns = new JsonArray().add(new JsonObject().put("name", "id").put("type", "BIGINT")
        .put("friendly_type", "Integer"));
    Dataset ready = storage.updateDataset(alice.id(), one.ready(42, columns, 1234, "\"etag1\"")).await();
    assertThat(ready.status()).isEqualTo(Dataset.READY);
    assertThat(ready.rowCount()).isEqualTo(42);
    assertThat(ready.columnCount()).isEqualTo(1);
    assertThat(ready.schema()).isEqualTo(columns);
    assertThat(ready.fileSize()).isEqualTo(1234);
    assertThat(ready.etag()).isEqualTo("\"etag1\"");

    Dataset failed = storage.updateDataset(alice.id(), two.failed("Could not access URL")).await();
    assertThat(failed.status()).isEqualTo(Dataset.ERROR);
    assertThat(failed.errorMessage()).isEqualTo("Could not access URL");

    assertThat(storage.renameDataset(alice.id(), c.id(), one.id(), "sales").await().name()).isEqualTo("sales");
    assertFails(storage.renameDataset(alice.id(), c.id(), two.id(), "SALES"), Failure.CONFLICT,
        "A dataset named 'SALES' already exists in this conversation");
    assertThat(storage.renameDataset(alice.id(), c.id(), one.id(), "sales").await().name()).isEqualTo("sales");
  }

  @Test
  @DisplayName("the dataset list, answered from memory once read, follows every write at once and stays its owner's")
  void datasetListFollowsWrites() {
    Conversation c = storage.createConversation(alice.id(), "Kept").await();
    assertThat(storage.datasets(alice.id(), c.id()).await()).isEmpty();
    Dataset one = storage.claimDataset(alice.id(), c.id(), "https://x.test/1.parquet", 5).await();
    assertThat(storage.datasets(alice.id(), c.id()).await()).extracting(Dataset::status).containsExactly(Dataset.LOADING);
    storage.updateDataset(alice.id(), one.ready(1, new JsonArray(), 10, null)).await();
    assertThat(storage.datasets(alice.id(), c.id()).await()).extracting(Dataset::status).containsExactly(Dataset.READY);
    storage.renameDataset(alice.id(), c.id(), one.id(), "sales").await();
    assertThat(storage.datasets(alice.id(), c.id()).await()).extracting(Dataset::name).containsExactly("sales");
    assertFails(storage.datasets(bob.id(), c.id()), Failure.NOT_FOUND, "Conversation not found");
    storage.deleteDataset(alice.id(), c.id(), one.id()).await();
    assertThat(storage.datasets(alice.id(), c.id()).await()).isEmpty();
    storage.deleteConversation(alice.id(), c.id()).await();
    assertFails(storage.datasets(alice.id(), c.id()), Failure.NOT_FOUND, "Conversation not found");
  }

  @Test
  @DisplayName("a list read while a rename runs is not kept, whichever was asked first: the next list has the new name")
  void datasetListReadDuringWrite() {
    Conversation c = storage.createConversation(alice.id(), "Race").await();
    Dataset d = storage.claimDataset(alice.id(), c.id(), "https://x.test/1.parquet", 5).await();
    for (int i = 0; i < 40; i++) {
      String name = "name" + i;
      Future<List<Dataset>> before = i % 2 == 0 ? storage.datasets(alice.id(), c.id()) : null;
      Future<Dataset> rename = storage.renameDataset(alice.id(), c.id(), d.id(), name);
      Future<List<Dataset>> during = i % 2 == 1 ? storage.datasets(alice.id(), c.id()) : before;
      Future.all(rename, during).await();
      assertThat(storage.datasets(alice.id(), c.id()).await()).extracting(Dataset::name).containsExactly(name);
    }
  }

  @Test
  @DisplayName("a stored result keeps at most 1,000 rows with the exact total, and its note, and comes back to its owner only")
  void results() {
    Conversation c = storage.createConversation(alice.id(), "Results").await();
    QueryResult small = storage.saveResult(alice.id(), result(c.id(), 3)).await();
    QueryResult back = storage.result(alice.id(), small.id()).await();
    assertThat(back.rowValues()).isEqualTo(small.rowValues());
    assertThat(back.columns()).isEqualTo(small.columns());
    assertThat(back.totalRows()).isEqualTo(3);
    assertThat(back.truncated()).isFalse();
    assertThat(back.note()).isNull();

    QueryResult cached = QueryResult.fromJson(result(c.id(), 1).toJson().put("note", "From a cached copy"));
    QueryResult saved = storage.saveResult(alice.id(), cached).await();
    assertThat(storage.result(alice.id(), saved.id()).await().note()).isEqualTo("From a cached copy");

    QueryResult atLimit = storage.saveResult(alice.id(), result(c.id(), 1000)).await();
    assertThat(atLimit.rows().size()).isEqualTo(1000);
    assertThat(atLimit.truncated()).isFalse();

    QueryResult big = storage.saveResult(alice.id(), result(c.id(), 1001)).await();
    QueryResult bigBack = storage.result(alice.id(), big.id()).await();
    assertThat(bigBack.rows().size()).isEqualTo(1000);
    assertThat(bigBack.totalRows()).isEqualTo(1001);
    assertThat(bigBack.truncated()).isTrue();
  }

  @Test
  @DisplayName("a result saved with an id keeps it, and a read sent right behind its save waits for the save")
  void readBehindSave() {
    Conversation c = storage.createConversation(alice.id(), "Results").await();
    List<Future<QueryResult>> reads = new ArrayList<>();
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      String id = UUID.randomUUID().toString();
      ids.add(id);
      Future<QueryResult> saved = storage.saveResult(alice.id(), result(c.id(), 1000).stored(id, Timestamps.now()));
      reads.add(storage.result(alice.id(), id));
      assertThat(saved.await().id()).isEqualTo(id);
    }
    assertThat(reads).allSatisfy(read -> assertThat(read.await().rows().size()).isEqualTo(1000));
    assertThat(reads.stream().map(read -> read.await().id()).toList()).isEqualTo(ids);

    String lost = UUID.randomUUID().toString();
    Future<QueryResult> refused = storage.saveResult(bob.id(), result(c.id(), 1).stored(lost, Timestamps.now()));
    assertFails(storage.result(alice.id(), lost), Failure.NOT_FOUND, "Result not found");
    assertFails(refused, Failure.NOT_FOUND, "Conversation not found");
  }

  @Test
  @DisplayName("token usage sums inside the window and survives deleting its conversation")
  void usage() {
    Conversation c = storage.createConversation(alice.id(), "Tokens").await();
    Instant now = Instant.now();
    storage.recordUsage(new TokenUsage(alice.id(), c.id(), "gemini-2.5-flash", 100, 20,
        Timestamps.format(now.minus(Duration.ofHours(25))))).await();
    storage.recordUsage(new TokenUsage(alice.id(), c.id(), "gemini-2.5-flash", 300, 40,
        Timestamps.format(now.minus(Duration.ofHours(2))))).await();
    storage.recordUsage(new TokenUsage(alice.id(), c.id(), "gemini-2.5-flash", 5, 1, null)).await();
    storage.recordUsage(new TokenUsage(bob.id(), null, "gemini-2.5-flash", 999, 999, null)).await();

    String since = Timestamps.format(now.minus(Duration.ofHours(24)));
    var window = storage.usageSince(alice.id(), since).await();
    assertThat(window.inputTokens()).isEqualTo(305);
    assertThat(window.outputTokens()).isEqualTo(41);
    assertThat(window.oldestAt()).isEqualTo(Timestamps.format(now.minus(Duration.ofHours(2))));

    storage.deleteConversation(alice.id(), c.id()).await();
    assertThat(storage.usageSince(alice.id(), since).await().total()).isEqualTo(346);
    assertThat(storage.usageSince(bob.id(), Timestamps.format(now.plusSeconds(3600))).await().total()).isZero();
  }

  @Test
  @DisplayName("a request without a required field is refused with a message naming it")
  void missingField() {
    assertThatThrownBy(() -> storage.createConversation(alice.id(), null).await())
        .hasMessage("Field 'title' is required");
  }

  private static QueryResult result(String conversationId, int rows) {
    JsonArray data = new JsonArray();
    for (int i = 0; i < rows; i++) {
      data.add(new JsonArray().add(i).add("row " + i));
    }
    JsonArray columns = new JsonArray()
        .add(new JsonObject().put("name", "n").put("type", "INTEGER"))
        .add(new JsonObject().put("name", "label").put("type", "VARCHAR"));
    return new QueryResult(null, conversationId, "SELECT n, label FROM t", columns, RowsJson.of(data), rows, false, 5,
        null, null);
  }
}
