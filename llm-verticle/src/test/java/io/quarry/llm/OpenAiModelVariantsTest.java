package io.quarry.llm;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.ChatMessage;
import io.quarry.testing.EventLog;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Every test of {@link ModelVariantsTest} against a server of OpenAI's Chat Completions API, and OpenAI's own: its
 * content filter, usage that comes only at the end (or never), reasoning in {@code reasoning_content}.
 */
class OpenAiModelVariantsTest extends ModelVariantsTest {

  @Override
  String provider() {
    return ModelSettings.OPENAI;
  }

  @Test
  @DisplayName("finish_reason content_filter with nothing written is a declined answer that says why in words")
  void contentFilter() throws Exception {
    turn.model.next().declined(25);
    turn.asked("Something the filter stops");
    List<JsonObject> events = turn.events.untilTurnEnds();
    String notice = "The model's content filter declined to answer this question.";
    assertThat(events.get(events.size() - 1).getString("notice")).isEqualTo(notice);
    ChatMessage stored = turn.answer();
    assertThat(stored.status()).isEqualTo("declined");
    assertThat(stored.notice()).isEqualTo(notice);
    assertThat(turn.inputTokens()).isEqualTo(25);
  }

  @Test
  @DisplayName("a stream that breaks before its usage chunk still records tokens: estimated from what was sent and"
      + " written")
  void brokenBeforeUsage() throws Exception {
    turn.model.next().text("Hal").streamError(500, "Internal error encountered.");
    turn.asked("Break please");
    turn.events.next("chat_error");
    assertThat(turn.usage()).hasSize(1);
    assertThat(turn.usage().get(0).inputTokens()).as("estimated from the request's length").isPositive();
    assertThat(turn.usage().get(0).outputTokens()).as("'Hal', estimated").isEqualTo(1);
  }
}
