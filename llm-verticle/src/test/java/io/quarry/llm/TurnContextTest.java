package io.quarry.llm;

import static io.quarry.llm.TurnHarness.column;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.ChatMessage;
import io.quarry.bus.Dataset;
import io.quarry.testing.EventLog;
import io.quarry.testing.FakeModel;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * What the llm verticle sends to Gemini (PROMPT-*, CONTEXT-*): the system prompt built fresh from the datasets
 * storage holds, and the pruned history.
 */
class TurnContextTest extends TurnTestBase {

  static final JsonArray PEOPLE = new JsonArray().add(column("name", "VARCHAR", "Text"))
      .add(column("score", "DECIMAL(10,2)", "Decimal")).add(column("joined", "DATE", "Date"))
      .add(column("active", "BOOLEAN", "Boolean"));
  static final JsonArray CITIES = new JsonArray().add(column("city", "VARCHAR", "Text"))
      .add(column("population", "INTEGER", "Integer"));

  private FakeModel.Request askAndRecord(String question) throws Exception {
    turn.model.next().answer("OK.");
    turn.asked(question);
    turn.events.untilTurnEnds();
    List<? extends FakeModel.Request> requests = turn.model.requests();
    return requests.get(requests.size() - 1);
  }

  @Test
  @DisplayName("PROMPT-1: with two datasets, the system prompt has both tables, their columns with friendly types, "
      + "and DuckDB SQL instructions")
  void prompt1() throws Exception {
    turn.dataset("table1", 100, PEOPLE);
    turn.dataset("table2", 1, CITIES);
    String system = askAndRecord("Compare them").systemText();
    assertThat(system).startsWith("You are a data analyst assistant. Help users understand and explore their data.");
    assertThat(system).contains("### table1 (100 rows", "- name: Text (VARCHAR)", "- score: Decimal (DECIMAL(10,2))",
        "- joined: Date (DATE)", "- active: Boolean (BOOLEAN)", "### table2 (1 rows", "- population: Integer",
        "DuckDB SQL", "LIMIT 1000", "Use the table names above as they are");
    assertThat(system).doesNotContain("Polars");
  }

  @Test
  @DisplayName("PROMPT-2 and PROMPT-3: a dataset added or removed mid-conversation is in, then out of, the next "
      + "request's prompt")
  void prompt2and3() throws Exception {
    turn.dataset("table1", 100, PEOPLE);
    assertThat(askAndRecord("first").systemText()).doesNotContain("table2");
    Dataset cities = turn.dataset("table2", 1, CITIES);
    assertThat(askAndRecord("second").systemText()).contains("### table2", "- city: Text");
    turn.storageClient.deleteDataset(TurnHarness.USER, turn.conversation, cities.id()).await();
    assertThat(askAndRecord("third").systemText()).doesNotContain("table2").contains("### table1");
  }

  @Test
  @DisplayName("PROMPT-4: with no dataset the prompt says to suggest adding one, or to use load_dataset for a URL")
  void prompt4() throws Exception {
    String system = askAndRecord("Hello").systemText();
    assertThat(system).contains("No datasets are loaded", "call load_dataset", "tell the user to add a dataset");
    assertThat(TurnHarness.toolNames(turn.request(0)))
        .containsExactly("execute_sql", "load_dataset", "render_chart", "render_table", "describe_columns");
  }

  /** Questions and answers 1 to {@code messages}, odd ones asked, even ones answered. */
  private void seed(int messages) {
    List<ChatMessage> seeded = new ArrayList<>();
    for (int i = 1; i <= messages; i++) {
      seeded.add(i % 2 == 1 ? ChatMessage.user(turn.conversation, "question " + i)
          : new ChatMessage(null, turn.conversation, ChatMessage.ASSISTANT, "answer " + i, null, null, null, null, 1,
              1, ChatMessage.COMPLETE, null, null));
    }
    turn.storage.seedMessages(seeded.toArray(ChatMessage[]::new)).await();
  }

  @Test
  @DisplayName("CONTEXT-1: a conversation of ten messages goes to Gemini whole, in chronological order")
  void context1() throws Exception {
    seed(9);
    FakeModel.Request request = askAndRecord("question 10");
    List<String> expected = new ArrayList<>();
    for (int i = 1; i <= 9; i++) {
      expected.add((i % 2 == 1 ? "question " : "answer ") + i);
    }
    expected.add("question 10");
    assertThat(TurnHarness.texts(request)).containsExactlyElementsOf(expected);
    assertThat(TurnHarness.roles(request).stream().distinct()).containsExactlyInAnyOrder("user", "model");
  }

  @Test
  @DisplayName("CONTEXT-2 and CONTEXT-3: of 55 messages only the newest 50 are sent, and the prompt is still fresh")
  void context2and3() throws Exception {
    seed(54);
    turn.dataset("table1", 100, PEOPLE);
    FakeModel.Request request = askAndRecord("question 55");
    List<String> texts = TurnHarness.texts(request);
    assertThat(texts).hasSize(50);
    assertThat(texts.get(0)).isEqualTo("answer 6");
    assertThat(texts.get(49)).isEqualTo("question 55");
    assertThat(request.systemText()).contains("### table1 (100 rows");
  }

  @Test
  @DisplayName("a context-too-large error is retried once without the ten oldest messages")
  void contextRetry() throws Exception {
    seed(20);
    turn.model.next().contextTooLarge();
    turn.model.next().answer("Fits now.");
    turn.asked("question 21");
    assertThat(EventLog.tokens(turn.events.untilTurnEnds())).isEqualTo("Fits now.");
    assertThat(TurnHarness.texts(turn.request(0))).hasSize(21);
    assertThat(TurnHarness.texts(turn.request(1))).hasSize(11).first().isEqualTo("question 11");
  }

  @Test
  @DisplayName("a second context-too-large error ends the turn with the seed's message")
  void contextTooLarge() throws Exception {
    turn.model.next().contextTooLarge();
    turn.model.next().contextTooLarge();
    turn.asked("anything");
    assertThat(turn.events.next("chat_error").getString("details"))
        .isEqualTo("Conversation context too large. Try starting a new conversation.");
  }

  @Test
  @DisplayName("a conversation without a title is named after its first question")
  void title() throws Exception {
    turn.model.next().answer("OK.");
    turn.asked("Which cities have more than a million people?");
    assertThat(turn.events.next("conversation_updated").getString("title"))
        .isEqualTo("Which cities have more than a million people?");
    turn.events.untilTurnEnds();
    assertThat(turn.storage.conversation(turn.conversation).await().title())
        .isEqualTo("Which cities have more than a million people?");
  }
}
