package io.quarry.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.quarry.bus.Conversation;
import io.quarry.bus.Dataset;
import io.quarry.bus.Failure;
import io.quarry.bus.QueryResult;
import io.quarry.bus.Timestamps;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * With PostgreSQL, several storage nodes serve at once (here two storage verticles on one bus, which hands their
 * requests out in turn), and none answers from a memory of writes it did not see.
 */
class SeveralStorageNodesTest extends StorageTestBase {

  Conversation conversation;

  @BeforeEach
  void secondNode(Vertx vertx) {
    assumeTrue(BACKEND == Dialect.POSTGRES, "several storage nodes need PostgreSQL");
    deployStorage(vertx).await();
    conversation = storage.createConversation(alice.id(), "Shared").await();
  }

  @Test
  @DisplayName("a dataset renamed through one node is listed by its new name by both")
  void listsSeeOtherNodesWrites() {
    Dataset d = storage.claimDataset(alice.id(), conversation.id(), "https://x.test/a.parquet", 5).await();
    for (int i = 0; i < 2; i++) {
      assertThat(storage.datasets(alice.id(), conversation.id()).await()).extracting(Dataset::name)
          .containsExactly("table1");
    }
    storage.renameDataset(alice.id(), conversation.id(), d.id(), "sales").await();
    for (int i = 0; i < 2; i++) {
      assertThat(storage.datasets(alice.id(), conversation.id()).await()).extracting(Dataset::name)
          .containsExactly("sales");
    }
  }

  @Test
  @DisplayName("a result whose save was answered by one node is read at once on the other: a save answers once its row"
      + " is committed, so the id the query's answer names is readable everywhere")
  void resultSavedOnOneNodeReadOnTheOther() {
    List<QueryResult> reads = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      // About 2 MB each; the bus hands each address's requests to the two nodes in turn, so saves and reads alternate.
      QueryResult named = big(conversation.id()).stored(UUID.randomUUID().toString(), Timestamps.now());
      storage.saveResult(alice.id(), named).await();
      reads.add(storage.result(alice.id(), named.id()).await());
    }
    assertThat(reads).extracting(QueryResult::totalRows).containsOnly(1000L);
  }

  @Test
  @DisplayName("an account's stored results are weighed from the database by every node: past the quota, every node"
      + " refuses its next query")
  void quotaSeenByEveryNode(Vertx vertx) {
    for (String id : new ArrayList<>(vertx.deploymentIDs())) {
      vertx.undeploy(id).await();
    }
    long quota = 3L * weight(result(conversation.id(), 50));
    for (int i = 0; i < 2; i++) {
      vertx.deployVerticle(new StorageVerticle(), new DeploymentOptions().setConfig(config()
          .put("maxResultBytesPerUser", quota))).await();
    }
    for (int i = 0; i < 2; i++) {
      storage.datasetsForQuery(alice.id(), conversation.id()).await();
    }
    for (int i = 0; i < 3; i++) {
      storage.saveResult(alice.id(), result(conversation.id(), 50)).await();
    }
    for (int i = 0; i < 2; i++) {
      assertThat(Failure.classify(failure(storage.datasetsForQuery(alice.id(), conversation.id()))))
          .isEqualTo(Failure.CONFLICT);
    }
  }

  private static QueryResult big(String conversationId) {
    io.vertx.core.json.JsonArray data = new io.vertx.core.json.JsonArray();
    for (int i = 0; i < 1000; i++) {
      data.add(new io.vertx.core.json.JsonArray().add(i).add("x".repeat(2000)));
    }
    QueryResult small = result(conversationId, 0);
    return new QueryResult(null, conversationId, small.sql(), small.columns(), io.quarry.bus.RowsJson.of(data), 1000,
        false, 5, null, null);
  }

  /** As {@link Quotas#RESULT_BYTES} weighs a stored result. */
  private static long weight(QueryResult r) {
    return r.rows().text().length() + r.columns().encode().length() + r.sql().length();
  }
}
