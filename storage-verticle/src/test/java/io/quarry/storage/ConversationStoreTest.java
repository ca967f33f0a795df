package io.quarry.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import io.quarry.bus.Bus;
import io.quarry.bus.ChatMessage;
import io.quarry.bus.Conversation;
import io.quarry.bus.Dataset;
import io.quarry.bus.Failure;
import io.quarry.bus.QueryResult;
import io.quarry.bus.StorageOps;
import io.quarry.bus.StorageOps.NewConversation;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** Conversations: their life, their owner's alone, and the fields a request must carry. */
class ConversationStoreTest extends StorageTestBase {

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
  @DisplayName("a request without a required field is refused with a message naming it")
  void missingField() {
    assertThatThrownBy(() -> storage.createConversation(alice.id(), null).await())
        .hasMessage("Field 'title' is required");
  }

  @Test
  @DisplayName("an id another user's conversation has is refused with CONFLICT, the same code and message whoever"
      + " owns it, nothing of theirs changed and nothing logged; the owner sending it again gets their conversation")
  void idOfAnotherUsersConversation() throws Exception {
    Bus bus = new Bus(vertx);
    Conversation alices = StorageOps.CONVERSATION_CREATE.call(bus,
        new NewConversation(alice.id(), UUID.randomUUID().toString(), "Alice's")).await();
    Conversation bobs = StorageOps.CONVERSATION_CREATE.call(bus,
        new NewConversation(bob.id(), UUID.randomUUID().toString(), "Bob's")).await();
    List<ILoggingEvent> logged = new CopyOnWriteArrayList<>();
    AppenderBase<ILoggingEvent> appender = new AppenderBase<>() {
      @Override
      protected void append(ILoggingEvent event) {
        if (event.getLevel().isGreaterOrEqual(Level.WARN)) {
          logged.add(event);
        }
      }
    };
    appender.start();
    Logger root = (Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME);
    root.addAppender(appender);
    try {
      assertFails(StorageOps.CONVERSATION_CREATE.call(bus, new NewConversation(bob.id(), alices.id(), "Mine")),
          Failure.CONFLICT, ConversationStore.ID_TAKEN);
      assertFails(StorageOps.CONVERSATION_CREATE.call(bus, new NewConversation(alice.id(), bobs.id(), "Mine")),
          Failure.CONFLICT, ConversationStore.ID_TAKEN);
    } finally {
      root.detachAppender(appender);
    }
    assertThat(logged).extracting(ILoggingEvent::getFormattedMessage).isEmpty();
    assertThat(StorageOps.CONVERSATION_CREATE.call(bus, new NewConversation(alice.id(), alices.id(), "Again")).await())
        .isEqualTo(alices);
    assertThat(storage.conversations(alice.id()).await()).containsExactly(alices);
    assertThat(storage.conversations(bob.id()).await()).containsExactly(bobs);
  }
}
