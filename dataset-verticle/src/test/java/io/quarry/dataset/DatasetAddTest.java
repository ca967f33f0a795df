package io.quarry.dataset;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.Addresses;
import io.quarry.bus.Conversation;
import io.quarry.bus.Dataset;
import io.quarry.bus.DatasetClient;
import io.quarry.bus.Failure;
import io.quarry.bus.QueryTimeouts;
import io.quarry.bus.StorageClient;
import io.quarry.testing.EventLog;
import io.quarry.testing.Failures;
import io.quarry.testing.FakeStorage;
import io.quarry.testing.ParquetFixtures;
import io.quarry.testing.ParquetServer;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dataset.add} with the dataset verticle deployed alone, between a fake storage and real Parquet files on
 * loopback: a failed add costs nothing (no slot of the limit, no name, not its URL).
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class DatasetAddTest {

  private static final String USER = "user-1";

  @TempDir
  Path dir;

  private FakeStorage storage;
  private ParquetServer files;
  private DatasetClient datasets;
  private Conversation conversation;
  private final EventLog events = new EventLog();

  @BeforeEach
  void start(Vertx vertx) {
    storage = FakeStorage.start(vertx).await();
    // It opens each added file as the engine would (any answer will do here: no test reads the schema).
    FakeWorker.start(vertx).await();
    files = ParquetServer.start(vertx);
    byte[] people = ParquetFixtures.people(dir);
    for (int i = 1; i <= 6; i++) {
      files.route("/good" + i + ".parquet").content(people);
    }
    for (int i = 1; i <= 3; i++) {
      files.route("/gone" + i + ".parquet").status(404);
    }
    JsonObject config = new JsonObject().put("allowPrivateNetworks", true);
    vertx.deployVerticle(new DatasetVerticle(), new DeploymentOptions().setConfig(config)).await();
    vertx.eventBus().<JsonObject>consumer(Addresses.chatEvents(USER), m -> events.add(m.body())).completion().await();
    datasets = new DatasetClient(vertx, new QueryTimeouts(5_000));
    conversation = storage.seedConversation(USER, "Adds").await();
  }

  private Future<Dataset> add(String path) {
    return datasets.add(USER, conversation.id(), files.url(path));
  }

  @Test
  @DisplayName("a failed add keeps nothing: dataset_error says why, nothing is stored, and its URL can be added again")
  void failedAddKeepsNothing() throws Exception {
    Failures.assertFails(add("/gone1.parquet"), Failure.BAD_REQUEST, "Could not access URL");
    assertThat(events.next("dataset_loading").getJsonObject("dataset").getString("status")).isEqualTo("loading");
    JsonObject failed = events.next("dataset_error").getJsonObject("dataset");
    assertThat(failed.getString("status")).isEqualTo("error");
    assertThat(failed.getString("error_message")).isEqualTo("Could not access URL");
    assertThat(failed.getString("url")).isEqualTo(files.url("/gone1.parquet"));
    assertThat(storage.datasets(conversation.id()).await()).isEmpty();

    files.route("/gone1.parquet").status(0).content(ParquetFixtures.people(dir));
    Dataset again = add("/gone1.parquet").await();
    assertThat(again.status()).isEqualTo(Dataset.READY);
    assertThat(again.name()).isEqualTo("table1");
  }

  @Test
  @DisplayName("with one dataset loaded and three failed adds, four more load as table2…table5 and the sixth is "
      + "refused with 'Maximum 5 datasets reached'")
  void failedAddsTakeNoSlotNorName() {
    assertThat(add("/good1.parquet").await().name()).isEqualTo("table1");
    for (int i = 1; i <= 3; i++) {
      Failures.assertFails(add("/gone" + i + ".parquet"), Failure.BAD_REQUEST, "Could not access URL");
    }
    for (int i = 2; i <= 5; i++) {
      assertThat(add("/good" + i + ".parquet").await().name()).isEqualTo("table" + i);
    }
    Failures.assertFails(add("/good6.parquet"), Failure.BAD_REQUEST, "Maximum 5 datasets reached");
    assertThat(storage.datasets(conversation.id()).await()).extracting(Dataset::name)
        .containsExactly("table1", "table2", "table3", "table4", "table5");
  }

  @Test
  @DisplayName("refreshing an add a stopped server left in error adds it again: it needs a free slot like any add")
  void refreshOfANeverLoadedAddNeedsASlot(Vertx vertx) {
    StorageClient direct = new StorageClient(vertx);
    Dataset left = direct.claimDataset(USER, conversation.id(), files.url("/good6.parquet"), 5).await();
    direct.updateDataset(USER, left.failed("Adding this dataset was interrupted when the server stopped")).await();
    for (int i = 1; i <= 5; i++) {
      add("/good" + i + ".parquet").await();
    }
    Failures.assertFails(datasets.refresh(USER, conversation.id(), left.id()), Failure.BAD_REQUEST,
        "Maximum 5 datasets reached");

    Dataset fifth = storage.datasets(conversation.id()).await().stream()
        .filter(d -> d.url().equals(files.url("/good5.parquet"))).findFirst().orElseThrow();
    datasets.remove(USER, conversation.id(), fifth.id()).await();
    Dataset retried = datasets.refresh(USER, conversation.id(), left.id()).await();
    assertThat(retried.status()).isEqualTo(Dataset.READY);
    assertThat(retried.url()).isEqualTo(files.url("/good6.parquet"));
    assertThat(storage.datasets(conversation.id()).await()).extracting(Dataset::url)
        .containsOnlyOnce(files.url("/good6.parquet")).hasSize(5);
  }
}
