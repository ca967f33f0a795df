package io.quarry.llm;

import static io.quarry.llm.TurnHarness.USER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.bus.BusFailure;
import io.quarry.bus.ChatMessage;
import io.quarry.bus.Failure;
import io.quarry.testing.EventLog;
import io.quarry.testing.FakeModel;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * An answer cut off at the model's output limit is continued into the same message: the model is sent the
 * conversation with the partial answer as its own turn and an instruction to go on, the rest streams under the
 * answer's id, and the stored answer becomes the whole text. Gemini's API here; OpenAI's in
 * {@link OpenAiContinueTurnTest}.
 */
class ContinueTurnTest extends TurnTestBase {

  private static final String CUT_OFF = ModelVariantsTest.CUT_OFF;

  /** A question whose answer is cut off: "The first of many points is", 30 in and 8192 out. */
  private String cutOffAnswer() throws InterruptedException {
    turn.model.next().text("The first of many ").text("points is").cutOff(30, 8192);
    String id = turn.asked("Write a lot");
    turn.events.untilTurnEnds();
    return id;
  }

  private String continued(String id) {
    return turn.llm.continueTurn(USER, turn.conversation, id).await().messageId();
  }

  @Test
  @DisplayName("Continue sends the partial answer as the model's turn and an instruction, streams the rest under the"
      + " same message id, stores the whole text without the notice, and counts its tokens")
  void continuesIntoTheSameAnswer() throws Exception {
    String id = cutOffAnswer();
    turn.model.next().text(" that the rest").text(" follows.").usage(40, 5);
    assertThat(continued(id)).isEqualTo(id);
    List<JsonObject> events = turn.events.untilTurnEnds();

    List<JsonObject> tokens = EventLog.ofType(events, "chat_token");
    assertThat(tokens).isNotEmpty().allSatisfy(t -> assertThat(t.getString("message_id")).isEqualTo(id));
    assertThat(EventLog.tokens(events)).isEqualTo(" that the rest follows.");
    JsonObject complete = events.get(events.size() - 1);
    assertThat(complete.getString("type")).isEqualTo("chat_complete");
    assertThat(complete.getString("message_id")).isEqualTo(id);
    assertThat(complete.getString("notice")).isNull();
    assertThat(complete.getLong("input_tokens")).isEqualTo(70);

    FakeModel.Request sent = turn.request(1);
    List<String> roles = TurnHarness.roles(sent);
    List<String> texts = texts(sent);
    assertThat(roles.subList(roles.size() - 3, roles.size())).containsExactly("user", "model", "user");
    assertThat(texts.get(texts.size() - 2)).isEqualTo("The first of many points is");
    assertThat(texts.get(texts.size() - 1)).isEqualTo(TurnPrompt.CONTINUE_INSTRUCTION);
    assertThat(TurnHarness.toolMode(sent)).isEqualTo("NONE");

    List<ChatMessage> messages = turn.messages();
    assertThat(messages).hasSize(2);
    ChatMessage stored = messages.get(1);
    assertThat(stored.id()).isEqualTo(id);
    assertThat(stored.content()).isEqualTo("The first of many points is that the rest follows.");
    assertThat(stored.status()).isEqualTo(ChatMessage.COMPLETE);
    assertThat(stored.notice()).isNull();
    assertThat(stored.inputTokens()).isEqualTo(70);
    assertThat(turn.usage()).hasSize(2);
    assertThat(turn.inputTokens()).isEqualTo(70);
  }

  @Test
  @DisplayName("a continuation cut off again keeps the notice, and can be continued again: the history then shows one"
      + " answer, the whole text as the model's turn")
  void cutAgain() throws Exception {
    String id = cutOffAnswer();
    turn.model.next().text(" two").cutOff(40, 8192);
    continued(id);
    List<JsonObject> ended = turn.events.untilTurnEnds();
    JsonObject end = ended.get(ended.size() - 1);
    assertThat(end.getString("notice")).isEqualTo(CUT_OFF);
    ChatMessage stored = turn.answer();
    assertThat(stored.content()).isEqualTo("The first of many points is two");
    assertThat(stored.notice()).isEqualTo(CUT_OFF);

    turn.model.next().answer(" and three.");
    continued(id);
    turn.events.untilTurnEnds();
    List<String> texts = texts(turn.request(2));
    assertThat(texts.get(texts.size() - 2)).isEqualTo("The first of many points is two");
    assertThat(turn.answer().content()).isEqualTo("The first of many points is two and three.");
    assertThat(turn.answer().notice()).isNull();
  }

  @Test
  @DisplayName("only the last answer, cut off, continues (CONFLICT); another user's or an unknown one is NOT_FOUND;"
      + " one whose turn runs is CONFLICT")
  void refused() throws Exception {
    turn.model.next().answer("Whole.");
    String whole = turn.asked("Say it");
    turn.events.untilTurnEnds();
    assertThat(failure(() -> continued(whole))).isEqualTo(Failure.CONFLICT);
    assertThat(failure(() -> turn.llm.continueTurn("someone-else", turn.conversation, whole).await()))
        .isEqualTo(Failure.NOT_FOUND);
    assertThat(failure(() -> continued("00000000-0000-0000-0000-000000000000"))).isEqualTo(Failure.NOT_FOUND);

    String id = cutOffAnswer();
    turn.model.next().text(" on").gate("held").usage(40, 2);
    continued(id);
    turn.events.next("chat_token");
    assertThat(failure(() -> continued(id))).isEqualTo(Failure.CONFLICT);
    assertThat(message).isEqualTo(Turns.IN_PROGRESS);
    // The refused continuation took nothing from the running one: it still holds the conversation.
    turn.model.next().answer("Late.");
    assertThat(failure(() -> turn.asked("Another question"))).isEqualTo(Failure.CONFLICT);
    assertThat(message).isEqualTo(Turns.IN_PROGRESS);
    turn.model.release("held");
    turn.events.untilTurnEnds();
    assertThat(turn.answer().content()).isEqualTo("The first of many points is on");
  }

  /** The whole text of each of the conversation's turns a request carried (Gemini's every text part joined). */
  private static List<String> texts(FakeModel.Request request) {
    JsonArray contents = request.body().getJsonArray("contents");
    if (contents == null) {
      return TurnHarness.texts(request);
    }
    return contents.stream().map(c -> ((JsonObject) c).getJsonArray("parts").stream()
        .map(p -> ((JsonObject) p).getString("text", "")).collect(Collectors.joining())).toList();
  }

  /** The message of the last failure read. */
  private String message;

  private Failure failure(Runnable call) {
    Throwable[] thrown = new Throwable[1];
    assertThatThrownBy(() -> {
      try {
        call.run();
      } catch (RuntimeException e) {
        thrown[0] = e;
        throw e;
      }
    });
    BusFailure failure = BusFailure.of(thrown[0]);
    message = failure.message();
    return failure.failure();
  }
}
