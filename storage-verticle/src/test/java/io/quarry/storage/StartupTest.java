package io.quarry.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.ChatMessage;
import io.quarry.bus.Conversation;
import io.quarry.bus.Dataset;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * What storage settles when it starts over a file a stopped server left: interrupted answers and dataset adds,
 * expired sessions.
 */
class StartupTest extends StorageTestBase {

  @Test
  @DisplayName("at start, an answer a dead server left streaming is interrupted and a dataset left loading fails with"
      + " Retry (SQLite; with PostgreSQL another node may be running them, so they are left alone)")
  void settlesWhatADeadServerLeft(Vertx vertx) {
    Conversation c = storage.createConversation(alice.id(), "Chat").await();
    String streaming = UUID.randomUUID().toString();
    storage.appendMessage(alice.id(), answer(streaming, c.id(), "Half an answ", ChatMessage.STREAMING, null)).await();
    storage.appendMessage(alice.id(), answer(null, c.id(), "Whole.", ChatMessage.COMPLETE, null)).await();
    Dataset loading = storage.claimDataset(alice.id(), c.id(), "https://x.test/1.parquet", 5).await();
    Dataset ready = storage.claimDataset(alice.id(), c.id(), "https://x.test/2.parquet", 5).await();
    storage.updateDataset(alice.id(), new Dataset(ready.id(), c.id(), ready.url(), ready.name(), 3L, 1, new JsonArray(),
        Dataset.READY, null, 10L, null, null, null)).await();

    restartStorage(vertx);
    if (BACKEND == Dialect.POSTGRES) {
      // Another storage node may be serving that answer and that add: a node starting leaves them alone.
      assertThat(storage.messages(alice.id(), c.id()).await()).extracting(ChatMessage::status)
          .containsExactly(ChatMessage.STREAMING, ChatMessage.COMPLETE);
      assertThat(storage.dataset(alice.id(), c.id(), loading.id()).await().status()).isEqualTo(Dataset.LOADING);
      return;
    }

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
    restartStorage(vertx);
    assertThat(count("SELECT COUNT(*) FROM sessions WHERE token_hash = 'expired'")).isZero();
    assertThat(storage.sessionUser("live").await().id()).isEqualTo(alice.id());
  }
}
