package io.quarry.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.Dataset;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonArray;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The reads and writes are futures completed by hand, so each interleaving is exact. */
class DatasetListsTest {

  private final DatasetLists lists = new DatasetLists(true);
  private final AtomicInteger reads = new AtomicInteger();

  private Supplier<Future<List<Dataset>>> reading(String version) {
    return () -> {
      reads.incrementAndGet();
      return Future.succeededFuture(versioned(version));
    };
  }

  private String list(String user, String version) {
    return lists.list(user, "c1", reading(version)).await().get(0).name();
  }

  @Test
  @DisplayName("a list read once is answered from memory for its owner, and read again for anyone else")
  void kept() {
    assertThat(list("alice", "v1")).isEqualTo("v1");
    assertThat(list("alice", "v2")).isEqualTo("v1");
    assertThat(reads).hasValue(1);
    assertThat(list("mallory", "theirs")).isEqualTo("theirs");
    assertThat(reads).hasValue(2);
  }

  @Test
  @DisplayName("a write drops the list when it starts and when it ends")
  void writeDrops() {
    list("alice", "v1");
    Promise<Void> write = Promise.promise();
    lists.write("c1", write::future);
    assertThat(list("alice", "during")).isEqualTo("during");
    write.complete();
    assertThat(list("alice", "after")).isEqualTo("after");
    assertThat(list("alice", "later")).isEqualTo("after");
  }

  @Test
  @DisplayName("a read that began before a write and ended after it is answered but not kept")
  void readAcrossWrite() {
    Promise<List<Dataset>> slowRead = Promise.promise();
    Future<List<Dataset>> old = lists.list("alice", "c1", slowRead::future);
    Promise<Void> write = Promise.promise();
    lists.write("c1", write::future);
    write.complete();
    slowRead.complete(versioned("before the write"));
    assertThat(old.await().get(0).name()).isEqualTo("before the write");
    assertThat(list("alice", "after")).isEqualTo("after");
  }

  @Test
  @DisplayName("a failed read (not the user's conversation) is not kept")
  void failedRead() {
    lists.list("alice", "c1", () -> Future.failedFuture("Conversation not found")).otherwiseEmpty().await();
    assertThat(list("alice", "v1")).isEqualTo("v1");
  }

  /** A list that says which read made it: its one dataset is named after it. */
  private static List<Dataset> versioned(String version) {
    return List.of(new Dataset("d1", "c1", "http://127.0.0.1/x.parquet", version, null, null, new JsonArray(),
        Dataset.READY, null, null, null, null, null));
  }
}
