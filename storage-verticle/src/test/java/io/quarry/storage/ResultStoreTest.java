package io.quarry.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.Conversation;
import io.quarry.bus.Failure;
import io.quarry.bus.QueryResult;
import io.quarry.bus.Timestamps;
import java.util.UUID;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Stored query results: rows kept, totals, notes, owners, and saves that name their result. */
class ResultStoreTest extends StorageTestBase {

  @Test
  @DisplayName("a result keeps the versions of the files it read")
  void sources() {
    Conversation c = storage.createConversation(alice.id(), "Versions").await();
    JsonArray sources = new JsonArray().add(new JsonObject().put("table", "table1").put("url", "https://x/a.parquet")
        .put("etag", "\"v1\"").put("last_modified", null).put("size", 1234L));
    QueryResult given = result(c.id(), 2);
    QueryResult withSources = new QueryResult(null, given.conversationId(), given.sql(), given.columns(),
        given.rows(), given.totalRows(), given.truncated(), given.executionTimeMs(), null, null, sources);
    String id = storage.saveResult(alice.id(), withSources).await().id();
    assertThat(storage.result(alice.id(), id).await().sources()).isEqualTo(sources);
  }

  @Test
  @DisplayName("a stored result keeps at most 1,000 rows with the exact total, and its note, and comes back to its owner only")
  void results() {
    Conversation c = storage.createConversation(alice.id(), "Results").await();
    QueryResult small = storage.saveResult(alice.id(), result(c.id(), 3)).await();
    QueryResult back = storage.result(alice.id(), small.id()).await();
    assertThat(back.rowValues()).isEqualTo(small.rowValues());
    assertThat(back.columns()).isEqualTo(small.columns());
    assertThat(back.totalRows()).isEqualTo(3);
    assertThat(back.truncated()).isFalse();
    assertThat(back.note()).isNull();

    QueryResult cached = QueryResult.fromJson(result(c.id(), 1).toJson().put("note", "From a cached copy"));
    QueryResult saved = storage.saveResult(alice.id(), cached).await();
    assertThat(storage.result(alice.id(), saved.id()).await().note()).isEqualTo("From a cached copy");

    QueryResult atLimit = storage.saveResult(alice.id(), result(c.id(), 1000)).await();
    assertThat(atLimit.rows().size()).isEqualTo(1000);
    assertThat(atLimit.truncated()).isFalse();

    QueryResult big = storage.saveResult(alice.id(), result(c.id(), 1001)).await();
    QueryResult bigBack = storage.result(alice.id(), big.id()).await();
    assertThat(bigBack.rows().size()).isEqualTo(1000);
    assertThat(bigBack.totalRows()).isEqualTo(1001);
    assertThat(bigBack.truncated()).isTrue();
  }

  @Test
  @DisplayName("a result saved with an id keeps it, a second delivery of its save changes nothing, and a save into"
      + " another user's conversation is refused")
  void savedWithAnId() {
    Conversation c = storage.createConversation(alice.id(), "Results").await();
    String id = UUID.randomUUID().toString();
    QueryResult named = result(c.id(), 1000).stored(id, Timestamps.now());
    assertThat(storage.saveResult(alice.id(), named).await().id()).isEqualTo(id);
    assertThat(storage.saveResult(alice.id(), named).await().id()).as("the save delivered again").isEqualTo(id);
    assertThat(storage.result(alice.id(), id).await().rows().size()).isEqualTo(1000);

    String refused = UUID.randomUUID().toString();
    assertFails(storage.saveResult(bob.id(), result(c.id(), 1).stored(refused, Timestamps.now())), Failure.NOT_FOUND,
        "Conversation not found");
    assertFails(storage.result(alice.id(), refused), Failure.NOT_FOUND, "Result not found");
  }
}
