package io.quarry.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.ChatMessage;
import io.quarry.bus.Conversation;
import io.quarry.bus.StorageOps;
import io.quarry.testing.PostgresServer;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.util.ArrayList;
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
  @DisplayName("issue 49 (4d): a message whose content is kept as JSON (a tool's call) shows its text in a search's few"
      + " words, not its escaped JSON (\\\"MSFT\\\"); text that only looks like JSON is shown as written")
  void snippetOfJsonContentIsItsText() {
    Conversation tool = storage.createConversation(alice.id(), "Prices").await();
    String call = new JsonObject().put("name", "run_sql").put("text", "The \"MSFT\" close, by month")
        .put("args", new JsonObject().put("sql", "SELECT month, close FROM prices WHERE ticker = 'MSFT'")).encode();
    storage.appendMessage(alice.id(), new ChatMessage(null, tool.id(), ChatMessage.TOOL, call, new JsonArray(),
        new JsonArray(), new JsonArray(), new JsonArray(), 0, 0, ChatMessage.COMPLETE, null, null)).await();
    Conversation parts = storage.createConversation(alice.id(), "Parts").await();
    storage.appendMessage(alice.id(), ChatMessage.user(parts.id(), "[{\"type\":\"text\",\"content\":\"Plot"
        + " \\\"GOOG\\\" against \\\"MSFT\\\"\"},{\"type\":\"image\",\"url\":\"x\"}]")).await();
    Conversation bracket = storage.createConversation(alice.id(), "Bracket").await();
    storage.appendMessage(alice.id(), ChatMessage.user(bracket.id(), "[draft] compare MSFT and AAPL")).await();

    List<JsonObject> found = search(alice.id(), "msft");
    assertThat(found).extracting(c -> c.getString("title")).containsExactly("Bracket", "Parts", "Prices");
    assertThat(found).extracting(c -> c.getString("match")).containsExactly("[draft] compare MSFT and AAPL",
        "Plot \"GOOG\" against \"MSFT\"", "The \"MSFT\" close, by month");
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

  /** The version of the schema just before the migration whose script names {@code what}. */
  private static int before(String what) {
    List<Migration> all = BACKEND.migrations;
    for (int i = 0; i < all.size(); i++) {
      if (all.get(i).script().contains(what)) {
        return i;
      }
    }
    throw new AssertionError("no migration of " + what);
  }

  @Test
  @DisplayName("REVIEW-48-10: case and accents are folded alike in the query and the text, past ASCII: istanbul finds"
      + " İstanbul, école, ECOLE, École and ecole find ÉCOLE (and a decomposed É), STRASSE finds Straße and straße"
      + " STRASSE (ß folds to ss); the few words shown are the message's own")
  void unicodeFolding() {
    Conversation istanbul = storage.createConversation(alice.id(), "İSTANBUL trip").await();
    Conversation ecole = storage.createConversation(alice.id(), "Schools").await();
    storage.appendMessage(alice.id(), ChatMessage.user(ecole.id(), "Rank the ÉCOLE rows by score")).await();
    Conversation decomposed = storage.createConversation(alice.id(), "Decomposed").await();
    storage.appendMessage(alice.id(), ChatMessage.user(decomposed.id(), "Une e\u0301cole de plus")).await();
    Conversation street = storage.createConversation(alice.id(), "Streets").await();
    storage.appendMessage(alice.id(), ChatMessage.user(street.id(), "Which Straße is longest?")).await();
    Conversation shout = storage.createConversation(alice.id(), "Shouting").await();
    storage.appendMessage(alice.id(), ChatMessage.user(shout.id(), "HAUPTSTRASSE 5")).await();

    for (String query : new String[] {"istanbul", "İstanbul", "ISTANBUL", "ıstanbul"}) {
      assertThat(search(alice.id(), query)).as(query).extracting(c -> c.getString("id")).containsExactly(istanbul.id());
    }
    for (String query : new String[] {"école", "ECOLE", "École", "ecole", "E\u0301COLE"}) {
      List<JsonObject> found = search(alice.id(), query);
      assertThat(found).as(query).extracting(c -> c.getString("id")).containsExactly(decomposed.id(), ecole.id());
      assertThat(found).as(query).extracting(c -> c.getString("match"))
          .containsExactly("Une e\u0301cole de plus", "Rank the ÉCOLE rows by score");
    }
    assertThat(search(alice.id(), "STRASSE")).extracting(c -> c.getString("match"))
        .containsExactly("HAUPTSTRASSE 5", "Which Straße is longest?");
    assertThat(search(alice.id(), "straße")).extracting(c -> c.getString("id")).containsExactly(shout.id(), street.id());
    Conversation renamed = storage.renameConversation(alice.id(), street.id(), "Ünïcödé streets").await();
    assertThat(search(alice.id(), "UNICODE")).extracting(c -> c.getString("title")).containsExactly(renamed.title());
    assertThat(search(bob.id(), "ecole")).as("another user's never").isEmpty();
  }

  @Test
  @DisplayName("REVIEW-48-10: a database of the version before search folded text is migrated: its titles and"
      + " messages (past one batch of 500) are folded, found as new ones are, and shown as written")
  void foldedOnMigration(Vertx vertx) throws Exception {
    for (String id : new ArrayList<>(vertx.deploymentIDs())) {
      vertx.undeploy(id).await();
    }
    dataDir = Files.createDirectories(dataDir.resolve("older"));
    if (BACKEND == Dialect.POSTGRES) {
      database = PostgresServer.shared().newDatabase();
    }
    Db older = StorageVerticle.connect(vertx, StorageSettings.from(config()));
    Migrations.apply(older, before("search_folded")).await();
    String at = "2025-01-01T00:00:00.000Z";
    older.run("INSERT INTO users (id, email, password_hash, created_at) VALUES ('u1', 'old@example.com', 'h', ?)", at)
        .await();
    older.run("INSERT INTO conversations (id, user_id, title, created_at, updated_at) VALUES ('c1', 'u1', 'İzmir ÉCOLE',"
        + " ?, ?), ('c2', 'u1', 'Other', ?, ?)", at, at, at, at).await();
    older.run("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1200) INSERT INTO messages"
        + " (id, conversation_id, role, content, created_at) SELECT 'm' || i, 'c2', 'user', 'Row ' || i || ' of the"
        + " STRAẞE', '" + at + "' FROM n").await();
    older.close().await();

    deployStorage(vertx).await();

    assertThat(count("SELECT COUNT(*) FROM messages WHERE content_folded IS NULL")).isZero();
    assertThat(count("SELECT COUNT(*) FROM conversations WHERE title_folded IS NULL")).isZero();
    assertThat(search("u1", "izmir ecole")).extracting(c -> c.getString("id")).containsExactly("c1");
    List<JsonObject> street = search("u1", "row 1200 of the strasse");
    assertThat(street).extracting(c -> c.getString("id")).containsExactly("c2");
    assertThat(street.get(0).getString("match")).isEqualTo("Row 1200 of the STRAẞE");
  }

  /** What a search answers, as it travels. */
  private List<JsonObject> search(String userId, String query) {
    return storage.searchConversations(userId, query).await().stream().map(StorageOps.Found::toJson).toList();
  }
}
