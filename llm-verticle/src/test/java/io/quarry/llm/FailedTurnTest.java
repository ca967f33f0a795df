package io.quarry.llm;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.ChatMessage;
import io.quarry.testing.EventLog;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** A turn that fails keeps its reply: the error is stored with the conversation, so a reload shows it. */
class FailedTurnTest extends TurnTestBase {

  /** For Gemini, the seed's words. */
  private String unavailable() {
    return turn.speaker() + " is unavailable right now (HTTP 503); try again shortly";
  }

  @Test
  @DisplayName("a Gemini 503 before any token stores the reply as an error that says why, after the question")
  void errorBeforeAnyTokenIsStored() throws Exception {
    turn.model.next().httpError(503, "The model is overloaded. Please try again later.");
    String id = turn.asked("Hello?");
    JsonObject error = turn.events.next("chat_error");
    assertThat(error.getString("error")).isEqualTo(unavailable());
    List<ChatMessage> messages = turn.messages();
    assertThat(messages).extracting(ChatMessage::role).containsExactly(ChatMessage.USER, ChatMessage.ASSISTANT);
    ChatMessage reply = messages.get(1);
    assertThat(reply.id()).isEqualTo(id);
    assertThat(reply.status()).isEqualTo(ChatMessage.ERROR);
    assertThat(reply.notice()).isEqualTo(unavailable());
    assertThat(reply.content()).isEmpty();
  }

  @Test
  @DisplayName("an error after some tokens keeps what was written and the error's text")
  void errorAfterTokensKeepsBoth() throws Exception {
    turn.model.next().text("Counting ").streamError(503, "Overloaded mid-stream");
    turn.asked("Count them");
    List<JsonObject> events = turn.events.untilTurnEnds();
    assertThat(events.get(events.size() - 1).getString("type")).isEqualTo("chat_error");
    ChatMessage reply = turn.answer();
    assertThat(reply.status()).isEqualTo(ChatMessage.ERROR);
    assertThat(reply.notice()).isEqualTo(events.get(events.size() - 1).getString("error"));
    assertThat(reply.content()).isEqualTo(EventLog.tokens(events));
  }

  @Test
  @DisplayName("the question asked again after a failed reply is answered, with the failed pair in its history")
  void askedAgainAfterAFailure() throws Exception {
    turn.model.next().httpError(503, "Overloaded");
    turn.asked("Hello?");
    turn.events.next("chat_error");
    turn.model.next().answer("Back.");
    turn.asked("Hello?");
    assertThat(EventLog.tokens(turn.events.untilTurnEnds())).isEqualTo("Back.");
    assertThat(turn.messages()).extracting(ChatMessage::status).containsExactly(ChatMessage.COMPLETE,
        ChatMessage.ERROR, ChatMessage.COMPLETE, ChatMessage.COMPLETE);
  }
}
