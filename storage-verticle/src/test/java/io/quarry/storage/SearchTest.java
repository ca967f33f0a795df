package io.quarry.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.ChatMessage;
import io.quarry.bus.Conversation;
import io.quarry.bus.StorageOps;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Conversation search over titles and message text, the owner's only (issue 20, part 4). */
class SearchTest extends StorageTestBase {

  @Test
  @DisplayName("a search finds the user's conversations by title or message text, ignoring case, newest first, with a"
      + " few words of the first message that holds it; another user's never")
  void search() {
    Conversation revenue = storage.createConversation(alice.id(), "Revenue by region").await();
    storage.appendMessage(alice.id(), ChatMessage.user(revenue.id(), "What was the revenue in 2023?")).await();
    Conversation cars = storage.createConversation(alice.id(), "Cars").await();
    storage.appendMessage(alice.id(), ChatMessage.user(cars.id(), "Which cars have horsepower over 200?")).await();
    storage.createConversation(bob.id(), "Revenue of Bob").await();

    List<JsonObject> found = search(alice.id(), "REVENUE");
    assertThat(found).extracting(c -> c.getString("id")).containsExactly(revenue.id());
    assertThat(found.get(0).getString("match")).isEqualTo("What was the revenue in 2023?");
    List<JsonObject> byMessage = search(alice.id(), "horsepower");
    assertThat(byMessage).extracting(c -> c.getString("title")).containsExactly("Cars");
    assertThat(search(alice.id(), "region").get(0).getString("match"))
        .as("found by its title alone").isNull();
    storage.appendMessage(alice.id(), ChatMessage.user(revenue.id(), "and the cars?")).await();
    assertThat(search(alice.id(), "cars")).extracting(c -> c.getString("id"))
        .containsExactly(revenue.id(), cars.id());
  }

  @Test
  @DisplayName("what a search types is text, not a pattern: % and _ match only themselves")
  void literal() {
    Conversation c = storage.createConversation(alice.id(), "Growth").await();
    storage.appendMessage(alice.id(), ChatMessage.user(c.id(), "Which grew by 100% in a_b?")).await();
    storage.createConversation(alice.id(), "Other").await();
    assertThat(search(alice.id(), "100%")).hasSize(1);
    assertThat(search(alice.id(), "a_b")).hasSize(1);
    assertThat(search(alice.id(), "%")).hasSize(1);
    assertThat(search(alice.id(), "_")).hasSize(1);
  }

  @Test
  @DisplayName("a match's few words are cut from the message itself, whole characters only: İ (longer lower-cased), ß,"
      + " combining accents and emoji")
  void snippetOnTheTextsOwnCharacters() {
    String acute = "e\u0301";
    String smile = "\uD83D\uDE00";
    // {the word searched for, the message, the few words shown}
    String[][] cases = {
        {"alpha", "İ".repeat(150) + " alpha", "…" + "İ".repeat(39) + " alpha"},
        {"beta", "ß".repeat(150) + " beta", "…" + "ß".repeat(39) + " beta"},
        {"gamma", acute.repeat(100) + " gamma", "…" + acute.repeat(20) + " gamma"},
        {"delta", smile.repeat(100) + " delta " + smile.repeat(100), "…" + smile.repeat(20) + " delta " + smile.repeat(30) + "…"}};
    for (String[] c : cases) {
      Conversation conversation = storage.createConversation(alice.id(), "Letters").await();
      storage.appendMessage(alice.id(), ChatMessage.user(conversation.id(), c[1])).await();
      List<JsonObject> found = search(alice.id(), c[0].toUpperCase(java.util.Locale.ROOT));
      assertThat(found).as(c[0]).hasSize(1);
      assertThat(found.get(0).getString("match")).as(c[0]).isEqualTo(c[2]);
    }
  }

  /** What a search answers, as it travels. */
  private List<JsonObject> search(String userId, String query) {
    return storage.searchConversations(userId, query).await().stream().map(StorageOps.Found::toJson).toList();
  }
}
