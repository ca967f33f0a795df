package io.quarry.llm;

import static io.quarry.llm.TurnHarness.USER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.bus.ChatEvents;
import io.quarry.bus.Failure;
import io.quarry.bus.QuarryException;
import io.quarry.bus.TokenUsage;
import io.quarry.testing.FakeModel;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * {@code chat.followUps=model}: the next questions after an answer, written by the model in one request without tools,
 * from the tables, the questions asked, the answer and its result's columns, counted in the user's budget. Gemini's API
 * here; OpenAI's in {@link OpenAiFollowUpsTest}.
 */
class FollowUpsTest extends TurnTestBase {

  static final String QUERY = "SELECT region, sum(revenue) AS revenue FROM table1 GROUP BY region";

  /** "Revenue by region?" answered from a result of region and revenue; the answer's id. */
  String answered() throws Exception {
    return answered(turn);
  }

  static String answered(TurnHarness turn) throws Exception {
    turn.dataset("table1", 2, TurnToolTest.PEOPLE);
    JsonArray rows = new JsonArray().add(new JsonArray().add("North").add(146.5))
        .add(new JsonArray().add("South").add(61.0));
    turn.answers(QUERY, List.of("region VARCHAR", "revenue DOUBLE"), rows);
    turn.model.next().call("execute_sql", new JsonObject().put("query", QUERY)).usage(50, 5);
    turn.model.next().answer("North made 146.5, South 61.");
    String id = turn.asked("Revenue by region?");
    turn.events.next(e -> ChatEvents.CHAT_COMPLETE.equals(e.getString("type")));
    return id;
  }

  @Test
  @DisplayName("the model's lines become at most three questions, list marks and quotes gone; its request has no tools"
      + " and holds the tables, the question, the answer, the result's columns; its tokens are recorded")
  void written() throws Exception {
    String id = answered();
    int before = turn.model.requests().size();
    turn.model.next().text("1. Which region grew fastest?\n- \"What is the revenue per person?\"\n\n")
        .text("* How many people are active?\nA fourth question?").usage(300, 30);

    List<String> questions = turn.llm.followUps(USER, turn.conversation, id).await().questions();

    assertThat(questions).containsExactly("Which region grew fastest?", "What is the revenue per person?",
        "How many people are active?");
    assertThat(turn.model.requests()).hasSize(before + 1);
    FakeModel.Request sent = turn.request(before);
    assertThat(TurnHarness.toolMode(sent)).isEqualTo("NONE");
    assertThat(sent.systemText()).contains("### table1").contains("- age: Integer");
    String asked = String.join("\n", TurnHarness.texts(sent));
    assertThat(asked).contains("- Revenue by region?").contains("North made 146.5, South 61.")
        .contains("2 rows with columns: region (VARCHAR), revenue (DOUBLE)").endsWith(FollowUpWriter.INSTRUCTION);
    List<TokenUsage> usage = turn.usage();
    assertThat(usage.get(usage.size() - 1).inputTokens()).isEqualTo(300);
    assertThat(usage.get(usage.size() - 1).conversationId()).isEqualTo(turn.conversation);
  }

  @Test
  @DisplayName("a question, an unknown id or an answer of another user's: NOT_FOUND, and the model is not asked")
  void onlyAnAnswer() throws Exception {
    String id = answered();
    String question = turn.messages().get(0).id();
    int before = turn.model.requests().size();
    assertThat(failure(() -> turn.llm.followUps(USER, turn.conversation, question).await()))
        .isEqualTo(Failure.NOT_FOUND);
    assertThat(failure(() -> turn.llm.followUps(USER, turn.conversation, "no-such-message").await()))
        .isEqualTo(Failure.NOT_FOUND);
    assertThat(failure(() -> turn.llm.followUps("somebody-else", turn.conversation, id).await()))
        .isEqualTo(Failure.NOT_FOUND);
    assertThat(turn.model.requests()).hasSize(before);
  }

  @Test
  @DisplayName("a model that fails: UNAVAILABLE with Quarry's words, none of the provider's error text")
  void modelFails() throws Exception {
    String id = answered();
    turn.model.next().httpError(500, "internal error near key=AIzaSecretSecret");
    turn.model.next().httpError(500, "internal error near key=AIzaSecretSecret");
    turn.model.next().httpError(500, "internal error near key=AIzaSecretSecret");

    assertThatThrownBy(() -> turn.llm.followUps(USER, turn.conversation, id).await())
        .isInstanceOfSatisfying(QuarryException.class, e -> {
          assertThat(e.failure()).isEqualTo(Failure.UNAVAILABLE);
          assertThat(e.getMessage()).isEqualTo(FollowUpWriter.FAILED);
        });
  }

  @Test
  @DisplayName("the questions as read: blank, overlong and repeated lines are skipped")
  void parsed() {
    String overlong = "Why ".repeat(60) + "?";
    assertThat(FollowUpWriter.questions("  2) Same?\n\n" + overlong + "\nSame?\n“Other?”\r\nThird?\nFourth?"))
        .containsExactly("Same?", "Other?", "Third?");
  }

  static Failure failure(ThrowingCall call) {
    try {
      call.run();
    } catch (Exception e) {
      return Failure.classify(e);
    }
    return null;
  }

  interface ThrowingCall {
    void run() throws Exception;
  }
}
