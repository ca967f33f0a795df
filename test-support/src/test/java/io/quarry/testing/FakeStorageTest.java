package io.quarry.testing;

import static io.quarry.bus.Addresses.STORAGE_CONVERSATION_GET;
import static io.quarry.bus.Addresses.STORAGE_MESSAGE_APPEND;
import static io.quarry.testing.Failures.assertFails;
import static io.quarry.testing.Failures.failure;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.quarry.bus.DataFormat;
import io.quarry.bus.ChatMessage;
import io.quarry.bus.Conversation;
import io.quarry.bus.Dataset;
import io.quarry.bus.Deliveries;
import io.quarry.bus.Failure;
import io.quarry.bus.Keys;
import io.quarry.bus.QuarryException;
import io.quarry.bus.QueryResult;
import io.quarry.bus.RowsJson;
import io.quarry.bus.StorageClient;
import io.quarry.bus.TokenUsage;
import io.quarry.bus.UsageWindow;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(VertxExtension.class)
class FakeStorageTest {

  static final String ALICE = "alice";
  static final String BOB = "bob";
  static final JsonArray SCHEMA = new JsonArray().add(new JsonObject().put("name", "city").put("type", "VARCHAR"));

  FakeStorage fake;
  StorageClient storage;
  Conversation talk;

  @BeforeEach
  void start(Vertx vertx) {
    fake = FakeStorage.start(vertx).await();
    storage = new StorageClient(vertx);
    talk = fake.seedConversation(ALICE, "Sales").await();
  }

  @Test
  @DisplayName("a seeded conversation is its owner's only, and a rename is stored")
  void conversations() {
    assertThat(storage.conversation(ALICE, talk.id()).await()).isEqualTo(talk);
    assertFails(storage.conversation(BOB, talk.id()), Failure.NOT_FOUND, "Conversation not found");

    storage.renameConversation(ALICE, talk.id(), "Sales by city").await();

    assertThat(fake.conversation(talk.id()).await().title()).isEqualTo("Sales by city");
  }

  @Test
  @DisplayName("messages are listed oldest first, and a streamed answer saved again under its id replaces itself")
  void messages() {
    ChatMessage question = fake.seedMessages(ChatMessage.user(talk.id(), "Which city sells most?")).await().get(0);
    ChatMessage partial = storage.appendMessage(ALICE, answer(null, "Lon", ChatMessage.STREAMING)).await();
    storage.appendMessage(ALICE, answer(partial.id(), "London", ChatMessage.COMPLETE)).await();

    assertThat(storage.messages(ALICE, talk.id()).await())
        .extracting(ChatMessage::id, ChatMessage::content, ChatMessage::status)
        .containsExactly(
            tuple(question.id(), "Which city sells most?", ChatMessage.COMPLETE),
            tuple(partial.id(), "London", ChatMessage.COMPLETE));
    assertThat(fake.messages(talk.id()).await()).hasSize(2);
    assertFails(storage.messages(BOB, talk.id()), Failure.NOT_FOUND, "Conversation not found");
    assertFails(storage.appendMessage(ALICE, new ChatMessage(null, talk.id(), "system", "", null, null, null, null,
        0, 0, ChatMessage.COMPLETE, null, null)), Failure.BAD_REQUEST,
        "Field 'message' needs a conversation_id and a role of user, assistant or tool");
  }

  @Test
  @DisplayName("as storage, a dataset that never loaded holds no slot, and adding its URL again replaces it")
  void failedAddsHoldNoSlot() {
    Dataset failed = storage.claimDataset(ALICE, talk.id(), "https://example.com/gone.parquet", 1).await();
    storage.updateDataset(ALICE, failed.failed("Could not access URL")).await();
    Dataset other = storage.claimDataset(ALICE, talk.id(), "https://example.com/a.parquet", 1).await();
    assertFails(storage.claimDataset(ALICE, talk.id(), "https://example.com/gone.parquet", 1), Failure.CONFLICT,
        "Maximum 1 datasets reached");
    storage.deleteDataset(ALICE, talk.id(), other.id()).await();
    Dataset again = storage.claimDataset(ALICE, talk.id(), "https://example.com/gone.parquet", 1).await();
    assertThat(again.status()).isEqualTo(Dataset.LOADING);
    assertThat(storage.datasets(ALICE, talk.id()).await()).extracting(Dataset::id).containsExactly(again.id());
  }

  @Test
  @DisplayName("claimed datasets are named table1, table2, refused twice or past the maximum, then loaded, renamed and deleted")
  void datasets() {
    Dataset first = storage.claimDataset(ALICE, talk.id(), "https://example.com/a.parquet", 2).await();
    Dataset second = storage.claimDataset(ALICE, talk.id(), "https://example.com/b.parquet", 2).await();
    assertThat(first.name()).isEqualTo("table1");
    assertThat(second.status()).isEqualTo(Dataset.LOADING);
    assertThat(second.name()).isEqualTo("table2");
    assertFails(storage.claimDataset(ALICE, talk.id(), "https://example.com/a.parquet", 5), Failure.CONFLICT,
        "This dataset is already loaded");
    assertFails(storage.claimDataset(ALICE, talk.id(), "https://example.com/c.parquet", 2), Failure.CONFLICT,
        "Maximum 2 datasets reached");

    Dataset ready = storage.updateDataset(ALICE, first.ready(42, SCHEMA, 1_000, "etag-1", DataFormat.PARQUET)).await();
    assertThat(ready.status()).isEqualTo(Dataset.READY);
    assertThat(ready.schema()).isEqualTo(SCHEMA);
    assertThat(storage.dataset(ALICE, talk.id(), first.id()).await().rowCount()).isEqualTo(42);
    assertFails(storage.renameDataset(ALICE, talk.id(), second.id(), "table1"), Failure.CONFLICT,
        "A dataset named 'table1' already exists in this conversation");
    assertThat(storage.renameDataset(ALICE, talk.id(), second.id(), "sales").await().name()).isEqualTo("sales");

    assertThat(storage.deleteDataset(ALICE, talk.id(), second.id()).await().id()).isEqualTo(second.id());
    assertThat(storage.datasets(ALICE, talk.id()).await()).containsExactly(ready);
    assertThat(storage.datasetsForQuery(ALICE, talk.id()).await()).containsExactly(ready);
    assertThat(fake.datasets(talk.id()).await()).containsExactly(ready);
    assertFails(storage.dataset(ALICE, talk.id(), second.id()), Failure.NOT_FOUND, "Dataset not found");
    assertFails(storage.dataset(BOB, talk.id(), first.id()), Failure.NOT_FOUND, "Dataset not found");
    assertFails(storage.datasets(BOB, talk.id()), Failure.NOT_FOUND, "Conversation not found");
  }

  @Test
  @DisplayName("a seeded dataset is ready with its schema")
  void seededDataset() {
    Dataset seeded = fake.seedDataset(talk.id(), "cities", "https://example.com/c.parquet", 7, SCHEMA).await();

    assertThat(storage.datasets(ALICE, talk.id()).await()).containsExactly(seeded);
    assertThat(seeded.status()).isEqualTo(Dataset.READY);
    assertThat(seeded.columnCount()).isEqualTo(1);
  }

  @Test
  @DisplayName("a saved result is read back by its owner under the id it came with; others are told 'Result not found'")
  void results() {
    QueryResult result = new QueryResult(null, talk.id(), "SELECT 1 AS one", new JsonArray()
        .add(new JsonObject().put("name", "one").put("type", "INTEGER")), RowsJson.of(new JsonArray()
        .add(new JsonArray().add(1))), 1, false, 3, null, null);

    QueryResult saved = storage.saveResult(ALICE, result).await();

    QueryResult read = storage.result(ALICE, saved.id()).await();
    assertThat(read.sql()).isEqualTo("SELECT 1 AS one");
    assertThat(read.rowValues()).isEqualTo(new JsonArray().add(new JsonArray().add(1)));
    assertThat(read.createdAt()).isEqualTo(saved.createdAt());
    assertThat(fake.results().await()).extracting(QueryResult::id).containsExactly(saved.id());
    assertFails(storage.result(BOB, saved.id()), Failure.NOT_FOUND, "Result not found");
    assertFails(storage.saveResult(BOB, result), Failure.NOT_FOUND, "Conversation not found");
  }

  @Test
  @DisplayName("recorded usage is summed over the window it falls in, oldest first")
  void usage() {
    storage.recordUsage(new TokenUsage(ALICE, talk.id(), "gemini", 100, 20, "2030-01-01T00:00:00.000Z")).await();
    storage.recordUsage(new TokenUsage(ALICE, talk.id(), "gemini", 10, 2, "2030-01-02T00:00:00.000Z")).await();
    storage.recordUsage(new TokenUsage(BOB, null, null, 5, 5, null)).await();

    UsageWindow window = storage.usageSince(ALICE, "2030-01-01T12:00:00.000Z").await();

    assertThat(window).isEqualTo(new UsageWindow(10, 2, "2030-01-02T00:00:00.000Z",
        List.of(new UsageWindow.Entry("2030-01-02T00:00:00.000Z", 12))));
    assertThat(storage.usageSince(ALICE, "2000-01-01T00:00:00.000Z").await().total()).isEqualTo(132);
    assertThat(fake.usage().await()).extracting(TokenUsage::modelName).containsExactly("gemini", "gemini", "unknown");
  }

  @Test
  @DisplayName("requests are counted per address, and the next ones fail as told, then it answers again")
  void countsAndFailures() {
    fake.failNext(STORAGE_CONVERSATION_GET, 2, new QuarryException(Failure.UNAVAILABLE, "Database is busy")).await();

    assertFails(storage.conversation(ALICE, talk.id()), Failure.UNAVAILABLE, "Database is busy");
    assertFails(storage.conversation(ALICE, talk.id()), Failure.UNAVAILABLE, "Database is busy");
    assertThat(storage.conversation(ALICE, talk.id()).await()).isEqualTo(talk);
    assertThat(fake.calls(STORAGE_CONVERSATION_GET).await()).isEqualTo(3);
    assertThat(fake.calls(STORAGE_MESSAGE_APPEND).await()).isZero();
  }

  @Test
  @DisplayName("a held request is never answered, so its caller times out")
  void hang(Vertx vertx) {
    fake.hangNext(STORAGE_CONVERSATION_GET, 1).await();
    JsonObject body = new JsonObject().put(Keys.USER_ID, ALICE).put(Keys.CONVERSATION_ID, talk.id());

    // StorageClient waits 10 s; the raw request with a short timeout is the same message.
    Throwable e = failure(vertx.eventBus().request(STORAGE_CONVERSATION_GET, body, Deliveries.within(200)));

    assertThat(((ReplyException) e).failureType()).isEqualTo(ReplyFailure.TIMEOUT);
    assertThat(storage.conversation(ALICE, talk.id()).await()).isEqualTo(talk);
  }

  @Test
  @DisplayName("once closed, nobody answers storage's addresses")
  void close() {
    fake.close().await();

    Throwable e = failure(storage.conversation(ALICE, talk.id()));

    assertThat(((ReplyException) e).failureType()).isEqualTo(ReplyFailure.NO_HANDLERS);
  }

  private ChatMessage answer(String id, String content, String status) {
    return new ChatMessage(id, talk.id(), ChatMessage.ASSISTANT, content, null, null, null, null, 0, 0, status, null,
        null);
  }
}
