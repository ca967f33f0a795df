package io.quarry.llm;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.Addresses;
import io.quarry.bus.ChatMessage;
import io.quarry.bus.Failure;
import io.quarry.bus.QuarryException;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * An answer ends for its browser only once storage has it: a final save storage cannot take yet is tried again, and
 * one it will never take ends the stream with an error. Checkpoints are off, so each turn saves its question and its
 * answer only, and a planned failure meets the save meant.
 */
class AnswerSaveTest extends TurnTestBase {

  private static final String APPEND = Addresses.STORAGE_MESSAGE_APPEND;

  @Override
  JsonObject llmConfig() {
    return new JsonObject().put("answerCheckpointMs", 3_600_000);
  }

  @Test
  @DisplayName("an answer whose final save storage cannot take yet is saved when it can, and only then ends complete")
  void finalSaveTriedAgain() throws Exception {
    turn.storage.passNext(APPEND, 1).await();
    turn.storage.failNext(APPEND, 2, new QuarryException(Failure.UNAVAILABLE, "Storage is unavailable")).await();
    turn.model.next().answer("Kept at last.");
    turn.asked("Hello?");
    List<JsonObject> events = turn.events.untilTurnEnds();
    assertThat(events.get(events.size() - 1).getString("type")).isEqualTo("chat_complete");
    assertThat(turn.answer().status()).isEqualTo(ChatMessage.COMPLETE);
    assertThat(turn.answer().content()).isEqualTo("Kept at last.");
    assertThat(turn.storage.calls(APPEND).await()).as("the question, then three saves of the answer").isEqualTo(4);
  }

  @Test
  @DisplayName("an answer storage refuses to keep ends with an error saying so, not with a stream that never ends")
  void unsavedAnswerSaysSo() throws Exception {
    turn.storage.passNext(APPEND, 1).await();
    turn.storage.failNext(APPEND, 1, QuarryException.notFound("Conversation not found")).await();
    turn.model.next().answer("Not kept.");
    String id = turn.asked("Hello?");
    JsonObject error = turn.events.next("chat_error");
    assertThat(error.getString("message_id")).isEqualTo(id);
    assertThat(error.getString("error")).isEqualTo(Turn.UNSAVED);
    assertThat(turn.storage.calls(APPEND).await()).as("refused for good: not tried again").isEqualTo(2);
    assertThat(turn.messages()).extracting(ChatMessage::role).containsExactly(ChatMessage.USER);
  }
}
