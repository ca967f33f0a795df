package io.quarry.storage;

import static io.quarry.bus.Addresses.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.ChatMessage;
import io.quarry.bus.Conversation;
import io.quarry.bus.Deliveries;
import io.quarry.bus.Failure;
import io.quarry.bus.Keys;
import io.quarry.bus.Timestamps;
import io.quarry.bus.TokenUsage;
import io.vertx.core.Future;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A request delivered twice, as {@code Failover} delivers one whose storage node may have died: the second finds
 * the work done and answers as the first did, on both backends.
 */
class SecondDeliveryTest extends StorageTestBase {

  @Test
  @DisplayName("a conversation created twice under one id is one conversation, answered both times")
  void conversation() throws Exception {
    JsonObject create = new JsonObject().put(Keys.USER_ID, alice.id()).put(Keys.TITLE, "Twice")
        .put(Keys.ID, UUID.randomUUID().toString());
    JsonObject first = twice(STORAGE_CONVERSATION_CREATE, create);
    assertThat(storage.conversations(alice.id()).await()).extracting(Conversation::id)
        .containsExactly(first.getString("id"));
  }

  @Test
  @DisplayName("a dataset claimed twice under one id is one dataset named table1; another claim of its URL is refused")
  void datasetClaim() throws Exception {
    Conversation c = storage.createConversation(alice.id(), "Data").await();
    JsonObject claim = new JsonObject().put(Keys.USER_ID, alice.id()).put(Keys.CONVERSATION_ID, c.id())
        .put(Keys.URL, "https://example.com/a.parquet").put(Keys.MAX_DATASETS, 5)
        .put(Keys.DATASET_ID, UUID.randomUUID().toString());
    assertThat(twice(STORAGE_DATASET_CLAIM, claim).getString("name")).isEqualTo("table1");
    assertThat(storage.datasets(alice.id(), c.id()).await()).hasSize(1);
    assertFails(storage.claimDataset(alice.id(), c.id(), "https://example.com/a.parquet", 5), Failure.CONFLICT,
        "This dataset is already loaded");
  }

  @Test
  @DisplayName("a result saved twice is stored once and readable")
  void result() throws Exception {
    Conversation c = storage.createConversation(alice.id(), "Results").await();
    JsonObject save = new JsonObject().put(Keys.USER_ID, alice.id())
        .put("result", result(c.id(), 3).stored(UUID.randomUUID().toString(), Timestamps.now()).toJson());
    String id = twice(STORAGE_RESULT_SAVE, save).getString("id");
    assertThat(storage.result(alice.id(), id).await().totalRows()).isEqualTo(3);
    assertThat(count("SELECT COUNT(*) FROM query_results")).isEqualTo(1);
  }

  @Test
  @DisplayName("a result saved into another user's conversation is refused, however often it comes")
  void resultOfAnotherUser() {
    Conversation c = storage.createConversation(alice.id(), "Alice's").await();
    JsonObject save = new JsonObject().put(Keys.USER_ID, bob.id())
        .put("result", result(c.id(), 3).stored(UUID.randomUUID().toString(), Timestamps.now()).toJson());
    assertFails(raw(STORAGE_RESULT_SAVE, save), Failure.NOT_FOUND,
        ConversationStore.NOT_FOUND);
    assertFails(raw(STORAGE_RESULT_SAVE, save), Failure.NOT_FOUND,
        ConversationStore.NOT_FOUND);
  }

  @Test
  @DisplayName("tokens recorded twice under one request id count once")
  void usage() throws Exception {
    JsonObject record = new TokenUsage(alice.id(), null, "gemini-2.5-flash", 100, 20, null).toJson()
        .put(Keys.REQUEST_ID, UUID.randomUUID().toString());
    twice(STORAGE_USAGE_RECORD, record);
    storage.recordUsage(new TokenUsage(alice.id(), null, "gemini-2.5-flash", 1, 1, null)).await();
    assertThat(storage.usageSince(alice.id(), Timestamps.format(Instant.now().minusSeconds(60))).await().total())
        .isEqualTo(122);
  }

  @Test
  @DisplayName("a session created twice is one session, and a message appended twice is one message")
  void sessionAndMessage() throws Exception {
    twice(STORAGE_SESSION_CREATE, new JsonObject().put(Keys.USER_ID, alice.id()).put(Keys.TOKEN_HASH, "h")
        .put(Keys.EXPIRES_AT, Timestamps.format(Instant.now().plusSeconds(3600))));
    assertThat(storage.sessionUser("h").await().id()).isEqualTo(alice.id());
    Conversation c = storage.createConversation(alice.id(), "Messages").await();
    ChatMessage question = new ChatMessage(UUID.randomUUID().toString(), c.id(), ChatMessage.USER, "How many?", null,
        null, null, null, 0, 0, ChatMessage.COMPLETE, null, null);
    twice(STORAGE_MESSAGE_APPEND, new JsonObject().put(Keys.USER_ID, alice.id()).put("message", question.toJson()));
    assertThat(storage.messages(alice.id(), c.id()).await()).extracting(ChatMessage::id).containsExactly(question.id());
  }

  /** Delivers {@code body} twice, one after the other; both must succeed with the same id. */
  private JsonObject twice(String address, JsonObject body) {
    JsonObject first = raw(address, body.copy()).await();
    JsonObject second = raw(address, body.copy()).await();
    assertThat(second.getString("id")).isEqualTo(first.getString("id"));
    return first;
  }

  /** A request as any application on the bus may send it: the documented JSON, no operation of ours. */
  private Future<JsonObject> raw(String address, JsonObject body) {
    return vertx.eventBus().<JsonObject>request(address, body, Deliveries.storage()).map(Message::body);
  }
}
