package io.quarry.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonObject;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The reads and writes are futures completed by hand, so each interleaving is exact. */
class DatasetListsTest {

  private final DatasetLists lists = new DatasetLists(true);
  private final AtomicInteger reads = new AtomicInteger();

  private Supplier<Future<JsonObject>> reading(String version) {
    return () -> {
      reads.incrementAndGet();
      return Future.succeededFuture(new JsonObject().put("version", version));
    };
  }

  private String list(String user, String version) {
    return lists.list(user, "c1", reading(version)).await().getString("version");
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
    Promise<JsonObject> slowRead = Promise.promise();
    Future<JsonObject> old = lists.list("alice", "c1", slowRead::future);
    Promise<Void> write = Promise.promise();
    lists.write("c1", write::future);
    write.complete();
    slowRead.complete(new JsonObject().put("version", "before the write"));
    assertThat(old.await().getString("version")).isEqualTo("before the write");
    assertThat(list("alice", "after")).isEqualTo("after");
  }

  @Test
  @DisplayName("a failed read (not the user's conversation) is not kept")
  void failedRead() {
    lists.list("alice", "c1", () -> Future.failedFuture("Conversation not found")).otherwiseEmpty().await();
    assertThat(list("alice", "v1")).isEqualTo("v1");
  }
}
