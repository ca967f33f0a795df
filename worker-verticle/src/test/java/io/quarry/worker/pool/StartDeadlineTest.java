package io.quarry.worker.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The workers' start limit counts from when they were started, not from when their node asks about them. */
class StartDeadlineTest {

  final Vertx vertx = Vertx.vertx();
  /** The test's clock: it moves only when the test says. */
  final AtomicLong now = new AtomicLong(1_000);

  @AfterEach
  void close() {
    vertx.close().await();
  }

  @Test
  @DisplayName("asked only once the limit has passed since the workers were started (the node deploying its other"
      + " roles meanwhile), it fails at once, naming the setting")
  void countsFromTheStart() {
    StartDeadline deadline = new StartDeadline(vertx, 60_000, now::get);
    deadline.started();
    now.addAndGet(60_000);
    var ready = deadline.await(Promise.promise().future(), () -> "{\"workers\":[\"starting\"]}");
    assertThatThrownBy(() -> ready.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class)
        .cause().hasMessage("The workers were not ready within 60 s of their start (localWorkers.startTimeoutMs,"
            + " QUARRY_LOCAL_WORKERS_START_TIMEOUT_MS; a loaded host may need more): {\"workers\":[\"starting\"]}");
  }

  @Test
  @DisplayName("workers that started within the limit are ready, however late the node asks; one that failed to start"
      + " fails it with its own reason")
  void startedInTime() {
    StartDeadline deadline = new StartDeadline(vertx, 60_000, now::get);
    deadline.started();
    now.addAndGet(59_000);
    Promise<Void> starts = Promise.promise();
    var ready = deadline.await(starts.future(), () -> "");
    starts.complete();
    ready.await();
    assertThat(ready.succeeded()).isTrue();
    var failed = deadline.await(io.vertx.core.Future.failedFuture("worker-1 stopped before it was ready"), () -> "");
    assertThatThrownBy(failed::await).hasMessage("worker-1 stopped before it was ready");
  }
}
