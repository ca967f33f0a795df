package io.quarry.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.DataFormat;
import io.quarry.bus.Conversation;
import io.quarry.bus.Dataset;
import io.quarry.bus.Failure;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** A conversation's datasets: names, duplicates, the limit of five, updates, renames, the list kept in memory. */
class DatasetStoreTest extends StorageTestBase {

  @Test
  @DisplayName("datasets are named table1, table2, ... in order; a name still taken is never reused")
  void datasetNaming() {
    Conversation c = storage.createConversation(alice.id(), "Data").await();
    Dataset one = storage.claimDataset(alice.id(), c.id(), "https://x.test/1.parquet", 5).await();
    Dataset two = storage.claimDataset(alice.id(), c.id(), "https://x.test/2.parquet", 5).await();
    assertThat(List.of(one.name(), two.name())).containsExactly("table1", "table2");
    assertThat(one.status()).isEqualTo(Dataset.LOADING);

    storage.deleteDataset(alice.id(), c.id(), one.id()).await();
    Dataset three = storage.claimDataset(alice.id(), c.id(), "https://x.test/3.parquet", 5).await();
    assertThat(three.name()).isEqualTo("table3");
    assertThat(storage.datasets(alice.id(), c.id()).await()).extracting(Dataset::name)
        .containsExactly("table2", "table3");
  }

  @Test
  @DisplayName("the same URL twice is refused with 'This dataset is already loaded'; other conversations may load it")
  void duplicateUrl() {
    Conversation c = storage.createConversation(alice.id(), "Data").await();
    Conversation other = storage.createConversation(alice.id(), "Other").await();
    storage.claimDataset(alice.id(), c.id(), "https://x.test/1.parquet", 5).await();
    assertFails(storage.claimDataset(alice.id(), c.id(), "https://x.test/1.parquet", 5), Failure.CONFLICT,
        "This dataset is already loaded");
    assertThat(storage.claimDataset(alice.id(), c.id(), "https://x.test/1.parquet?v=2", 5).await().name())
        .isEqualTo("table2");
    assertThat(storage.claimDataset(alice.id(), other.id(), "https://x.test/1.parquet", 5).await().name())
        .isEqualTo("table1");
  }

  @Test
  @DisplayName("the fifth dataset is accepted, the sixth refused with 'Maximum 5 datasets reached', removal frees a slot")
  void datasetLimit() {
    Conversation c = storage.createConversation(alice.id(), "Data").await();
    List<Dataset> added = new ArrayList<>();
    for (int i = 1; i <= 5; i++) {
      added.add(storage.claimDataset(alice.id(), c.id(), "https://x.test/" + i + ".parquet", 5).await());
    }
    assertFails(storage.claimDataset(alice.id(), c.id(), "https://x.test/6.parquet", 5), Failure.CONFLICT,
        "Maximum 5 datasets reached");
    storage.deleteDataset(alice.id(), c.id(), added.get(2).id()).await();
    assertThat(storage.claimDataset(alice.id(), c.id(), "https://x.test/6.parquet", 5).await().name())
        .isEqualTo("table6");
  }

  @Test
  @DisplayName("a dataset that never loaded holds no slot: with one ready and three failed adds left in error, four "
      + "more are accepted and the sixth refused with 'Maximum 5 datasets reached'")
  void failedAddsHoldNoSlot() {
    Conversation c = storage.createConversation(alice.id(), "Data").await();
    Dataset ready = storage.claimDataset(alice.id(), c.id(), "https://x.test/ok.parquet", 5).await();
    storage.updateDataset(alice.id(), ready.ready(1, new JsonArray(), 10, null, DataFormat.PARQUET)).await();
    for (int i = 1; i <= 3; i++) {
      Dataset failed = storage.claimDataset(alice.id(), c.id(), "https://x.test/gone" + i + ".parquet", 5).await();
      storage.updateDataset(alice.id(), failed.failed("Could not access URL")).await();
    }
    for (int i = 1; i <= 4; i++) {
      storage.claimDataset(alice.id(), c.id(), "https://x.test/" + i + ".parquet", 5).await();
    }
    assertFails(storage.claimDataset(alice.id(), c.id(), "https://x.test/5.parquet", 5), Failure.CONFLICT,
        "Maximum 5 datasets reached");
  }

  @Test
  @DisplayName("adding the URL of a dataset that never loaded replaces it under a new name; one that loaded and then "
      + "failed a refresh keeps its URL and slot")
  void failedAddIsReplaced() {
    Conversation c = storage.createConversation(alice.id(), "Data").await();
    Dataset loaded = storage.claimDataset(alice.id(), c.id(), "https://x.test/loaded.parquet", 5).await();
    storage.updateDataset(alice.id(), loaded.ready(1, new JsonArray(), 10, null, DataFormat.PARQUET)).await();
    storage.updateDataset(alice.id(), loaded.ready(1, new JsonArray(), 10, null, DataFormat.PARQUET).failed("Could not access URL")).await();
    Dataset failed = storage.claimDataset(alice.id(), c.id(), "https://x.test/gone.parquet", 5).await();
    storage.updateDataset(alice.id(), failed.failed("Could not access URL")).await();

    Dataset again = storage.claimDataset(alice.id(), c.id(), "https://x.test/gone.parquet", 5).await();
    assertThat(again.id()).isNotEqualTo(failed.id());
    assertThat(again.status()).isEqualTo(Dataset.LOADING);
    assertThat(storage.datasets(alice.id(), c.id()).await()).extracting(Dataset::id)
        .containsExactly(loaded.id(), again.id());
    assertFails(storage.claimDataset(alice.id(), c.id(), "https://x.test/loaded.parquet", 5), Failure.CONFLICT,
        "This dataset is already loaded");
    assertFails(storage.claimDataset(alice.id(), c.id(), "https://x.test/1.parquet", 2), Failure.CONFLICT,
        "Maximum 2 datasets reached");
  }

  @Test
  @DisplayName("ten concurrent claims beside failed adds left in error yield exactly five datasets with distinct names")
  void concurrentClaimsBesideFailedAdds() {
    Conversation c = storage.createConversation(alice.id(), "Race").await();
    for (int i = 0; i < 2; i++) {
      Dataset failed = storage.claimDataset(alice.id(), c.id(), "https://x.test/gone" + i + ".parquet", 5).await();
      storage.updateDataset(alice.id(), failed.failed("Could not access URL")).await();
    }
    List<Future<Dataset>> claims = IntStream.range(0, 10)
        .mapToObj(i -> storage.claimDataset(alice.id(), c.id(), "https://x.test/" + i + ".parquet", 5))
        .toList();
    Future.join(claims).otherwiseEmpty().await();
    List<String> names = claims.stream().filter(Future::succeeded).map(f -> f.result().name()).toList();
    assertThat(names).hasSize(5).doesNotHaveDuplicates().doesNotContain("table1", "table2");
    assertThat(claims.stream().filter(Future::failed))
        .allSatisfy(f -> assertThat(f.cause().getMessage()).isEqualTo("Maximum 5 datasets reached"));
  }

  @Test
  @DisplayName("ten concurrent claims in one conversation yield exactly five datasets with distinct names")
  void concurrentClaims() {
    Conversation c = storage.createConversation(alice.id(), "Race").await();
    List<Future<Dataset>> claims = IntStream.range(0, 10)
        .mapToObj(i -> storage.claimDataset(alice.id(), c.id(), "https://x.test/" + i + ".parquet", 5))
        .toList();
    Future.join(claims).otherwiseEmpty().await();
    List<String> names = claims.stream().filter(Future::succeeded).map(f -> f.result().name()).toList();
    assertThat(names).hasSize(5).doesNotHaveDuplicates();
    assertThat(claims.stream().filter(Future::failed))
        .allSatisfy(f -> assertThat(f.cause().getMessage()).isEqualTo("Maximum 5 datasets reached"));
  }

  @Test
  @DisplayName("a dataset is updated to ready with its schema, and renamed only to a name free in its conversation")
  void datasetUpdateAndRename() {
    Conversation c = storage.createConversation(alice.id(), "Data").await();
    Dataset one = storage.claimDataset(alice.id(), c.id(), "https://x.test/1.parquet", 5).await();
    Dataset two = storage.claimDataset(alice.id(), c.id(), "https://x.test/2.parquet", 5).await();
    JsonArray columns = new JsonArray().add(new JsonObject().put("name", "id").put("type", "BIGINT")
        .put("friendly_type", "Integer"));
    assertThat(one.format()).as("a dataset before it loads").isEqualTo("parquet");
    Dataset ready = storage.updateDataset(alice.id(), one.ready(42, columns, 1234, "\"etag1\"", DataFormat.CSV))
        .await();
    assertThat(ready.status()).isEqualTo(Dataset.READY);
    assertThat(ready.dataFormat()).isEqualTo(DataFormat.CSV);
    assertThat(storage.datasets(alice.id(), c.id()).await().get(0).format()).isEqualTo("csv");
    assertThat(ready.rowCount()).isEqualTo(42);
    assertThat(ready.columnCount()).isEqualTo(1);
    assertThat(ready.schema()).isEqualTo(columns);
    assertThat(ready.fileSize()).isEqualTo(1234);
    assertThat(ready.etag()).isEqualTo("\"etag1\"");

    Dataset failed = storage.updateDataset(alice.id(), two.failed("Could not access URL")).await();
    assertThat(failed.status()).isEqualTo(Dataset.ERROR);
    assertThat(failed.errorMessage()).isEqualTo("Could not access URL");

    assertThat(storage.renameDataset(alice.id(), c.id(), one.id(), "sales").await().name()).isEqualTo("sales");
    assertFails(storage.renameDataset(alice.id(), c.id(), two.id(), "SALES"), Failure.CONFLICT,
        "A dataset named 'SALES' already exists in this conversation");
    assertThat(storage.renameDataset(alice.id(), c.id(), one.id(), "sales").await().name()).isEqualTo("sales");
  }

  @Test
  @DisplayName("the dataset list, answered from memory once read, follows every write at once and stays its owner's")
  void datasetListFollowsWrites() {
    Conversation c = storage.createConversation(alice.id(), "Kept").await();
    assertThat(storage.datasets(alice.id(), c.id()).await()).isEmpty();
    Dataset one = storage.claimDataset(alice.id(), c.id(), "https://x.test/1.parquet", 5).await();
    assertThat(storage.datasets(alice.id(), c.id()).await()).extracting(Dataset::status).containsExactly(Dataset.LOADING);
    storage.updateDataset(alice.id(), one.ready(1, new JsonArray(), 10, null, DataFormat.PARQUET)).await();
    assertThat(storage.datasets(alice.id(), c.id()).await()).extracting(Dataset::status).containsExactly(Dataset.READY);
    storage.renameDataset(alice.id(), c.id(), one.id(), "sales").await();
    assertThat(storage.datasets(alice.id(), c.id()).await()).extracting(Dataset::name).containsExactly("sales");
    assertFails(storage.datasets(bob.id(), c.id()), Failure.NOT_FOUND, "Conversation not found");
    storage.deleteDataset(alice.id(), c.id(), one.id()).await();
    assertThat(storage.datasets(alice.id(), c.id()).await()).isEmpty();
    storage.deleteConversation(alice.id(), c.id()).await();
    assertFails(storage.datasets(alice.id(), c.id()), Failure.NOT_FOUND, "Conversation not found");
  }

  @Test
  @DisplayName("a list read while a rename runs is not kept, whichever was asked first: the next list has the new name")
  void datasetListReadDuringWrite() {
    Conversation c = storage.createConversation(alice.id(), "Race").await();
    Dataset d = storage.claimDataset(alice.id(), c.id(), "https://x.test/1.parquet", 5).await();
    for (int i = 0; i < 40; i++) {
      String name = "name" + i;
      Future<List<Dataset>> before = i % 2 == 0 ? storage.datasets(alice.id(), c.id()) : null;
      Future<Dataset> rename = storage.renameDataset(alice.id(), c.id(), d.id(), name);
      Future<List<Dataset>> during = i % 2 == 1 ? storage.datasets(alice.id(), c.id()) : before;
      Future.all(rename, during).await();
      assertThat(storage.datasets(alice.id(), c.id()).await()).extracting(Dataset::name).containsExactly(name);
    }
  }
}
