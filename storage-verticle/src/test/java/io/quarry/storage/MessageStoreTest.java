package io.quarry.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.ChatMessage;
import io.quarry.bus.Conversation;
import io.quarry.bus.Failure;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** A conversation's messages: their order and contents, an answer saved as it grows, the roles allowed. */
class MessageStoreTest extends StorageTestBase {

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
  @DisplayName("an answer's checked numbers are stored with it and come back as they were")
  void numbers() {
    Conversation c = storage.createConversation(alice.id(), "Chat").await();
    JsonObject numbers = new JsonObject().put("checked", 2).put("matched", 1)
        .put("unmatched", new JsonArray().add(new JsonObject().put("text", "9").put("position", 30)))
        .put("cells", new JsonArray().add(new JsonObject().put("text", "2").put("position", 3).put("result_id", "r")
            .put("row", 0).put("column", "n")));
    ChatMessage answer = new ChatMessage(UUID.randomUUID().toString(), c.id(), ChatMessage.ASSISTANT, "In 2 of 9.",
        null, null, null, null, 0, 0, ChatMessage.COMPLETE, null, null, numbers);
    storage.appendMessage(alice.id(), answer).await();
    assertThat(storage.messages(alice.id(), c.id()).await().get(0).numbers()).isEqualTo(numbers);
  }

  @Test
  @DisplayName("an answer that has ended is final: a checkpoint delivered after it cannot take it back to streaming")
  void endedAnswerIsFinal() {
    Conversation c = storage.createConversation(alice.id(), "Chat").await();
    String id = UUID.randomUUID().toString();
    storage.appendMessage(alice.id(), answer(id, c.id(), "There", ChatMessage.STREAMING, null)).await();
    storage.appendMessage(alice.id(), answer(id, c.id(), "There are 100 people.", ChatMessage.COMPLETE, null)).await();
    storage.appendMessage(alice.id(), answer(id, c.id(), "There are", ChatMessage.STREAMING, null)).await();

    ChatMessage stored = storage.messages(alice.id(), c.id()).await().get(0);
    assertThat(stored.status()).isEqualTo(ChatMessage.COMPLETE);
    assertThat(stored.content()).isEqualTo("There are 100 people.");
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
  @DisplayName("an answer its llm node left behind is interrupted: a streaming one keeps its text, one never saved is"
      + " kept empty, an ended one stays as it ended, and only in the caller's own conversation")
  void interrupted() {
    Conversation c = storage.createConversation(alice.id(), "Chat").await();
    storage.appendMessage(alice.id(), ChatMessage.user(c.id(), "Tell me")).await();
    String streaming = UUID.randomUUID().toString();
    storage.appendMessage(alice.id(), answer(streaming, c.id(), "Half an ans", ChatMessage.STREAMING, null)).await();

    ChatMessage kept = storage.interruptMessage(alice.id(), c.id(), streaming, "Interrupted.").await();
    assertThat(kept.content()).isEqualTo("Half an ans");
    assertThat(kept.status()).isEqualTo(ChatMessage.INTERRUPTED);
    assertThat(kept.notice()).isEqualTo("Interrupted.");

    String neverSaved = UUID.randomUUID().toString();
    ChatMessage empty = storage.interruptMessage(alice.id(), c.id(), neverSaved, "Interrupted.").await();
    assertThat(empty.content()).isEmpty();
    assertThat(empty.status()).isEqualTo(ChatMessage.INTERRUPTED);
    assertThat(empty.role()).isEqualTo(ChatMessage.ASSISTANT);

    String ended = UUID.randomUUID().toString();
    storage.appendMessage(alice.id(), answer(ended, c.id(), "Whole answer", ChatMessage.COMPLETE, null)).await();
    assertThat(storage.interruptMessage(alice.id(), c.id(), ended, "Interrupted.").await().status())
        .isEqualTo(ChatMessage.COMPLETE);
    assertThat(storage.messages(alice.id(), c.id()).await()).extracting(ChatMessage::content)
        .containsExactly("Tell me", "Half an ans", "", "Whole answer");

    assertFails(storage.interruptMessage(bob.id(), c.id(), UUID.randomUUID().toString(), "x"), Failure.NOT_FOUND,
        "Conversation not found");
    Conversation bobs = storage.createConversation(bob.id(), "Bob's").await();
    assertFails(storage.interruptMessage(bob.id(), bobs.id(), streaming, "x"), Failure.NOT_FOUND, "Message not found");
    assertThat(storage.messages(alice.id(), c.id()).await().get(1).notice()).isEqualTo("Interrupted.");
  }

  @Test
  @DisplayName("a cut-off answer is reopened to stream again, so that its continuation saves into it; a second delivery"
      + " finds it streaming; a whole answer is CONFLICT, another conversation's NOT_FOUND")
  void reopened() {
    String cutOff = "Cut off.";
    Conversation c = storage.createConversation(alice.id(), "Chat").await();
    storage.appendMessage(alice.id(), ChatMessage.user(c.id(), "Write a lot")).await();
    String id = UUID.randomUUID().toString();
    storage.appendMessage(alice.id(), answer(id, c.id(), "Half an ", ChatMessage.COMPLETE, cutOff)).await();
    String whole = UUID.randomUUID().toString();
    storage.appendMessage(alice.id(), answer(whole, c.id(), "Whole", ChatMessage.COMPLETE, null)).await();

    assertThat(storage.reopenMessage(alice.id(), c.id(), id, cutOff).await().status()).isEqualTo(ChatMessage.STREAMING);
    assertThat(storage.reopenMessage(alice.id(), c.id(), id, cutOff).await().content()).isEqualTo("Half an ");
    storage.appendMessage(alice.id(), answer(id, c.id(), "Half an answer.", ChatMessage.COMPLETE, null)).await();
    assertThat(storage.messages(alice.id(), c.id()).await().get(1).content()).isEqualTo("Half an answer.");

    assertFails(storage.reopenMessage(alice.id(), c.id(), whole, cutOff), Failure.CONFLICT,
        io.quarry.bus.StorageOps.NOT_CUT_OFF);
    assertFails(storage.reopenMessage(bob.id(), c.id(), id, cutOff), Failure.NOT_FOUND, "Conversation not found");
    Conversation bobs = storage.createConversation(bob.id(), "Bob's").await();
    assertFails(storage.reopenMessage(bob.id(), bobs.id(), id, cutOff), Failure.NOT_FOUND, "Message not found");
  }
}
