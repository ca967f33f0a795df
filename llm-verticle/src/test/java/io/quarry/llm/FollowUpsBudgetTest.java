package io.quarry.llm;

import static io.quarry.llm.TurnHarness.USER;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.Failure;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The model's follow-ups spend the user's budget like a question, and are refused past it without asking the model. */
class FollowUpsBudgetTest extends TurnTestBase {

  @Override
  JsonObject llmConfig() {
    return new JsonObject().put("tokenLimit", 400);
  }

  @Test
  @DisplayName("follow-ups that take the budget past its limit are counted; the next are RATE_LIMITED, the model not"
      + " asked")
  void withinTheBudget() throws Exception {
    String id = FollowUpsTest.answered(turn);
    turn.model.next().text("Which region grew fastest?").usage(350, 20);
    assertThat(turn.llm.followUps(USER, turn.conversation, id).await().questions())
        .isEqualTo(List.of("Which region grew fastest?"));
    int before = turn.model.requests().size();

    assertThat(FollowUpsTest.failure(() -> turn.llm.followUps(USER, turn.conversation, id).await()))
        .isEqualTo(Failure.RATE_LIMITED);
    assertThat(turn.model.requests()).hasSize(before);
  }
}
