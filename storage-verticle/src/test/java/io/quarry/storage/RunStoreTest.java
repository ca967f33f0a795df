package io.quarry.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.Conversation;
import io.quarry.bus.Failure;
import io.quarry.bus.QueryResult;
import io.quarry.bus.ResultRun;
import io.quarry.bus.Timestamps;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The results a user ran themselves: marked once stored, listed oldest first, the owner's only. */
class RunStoreTest extends StorageTestBase {

  private QueryResult saved(Conversation c) {
    return storage.saveResult(alice.id(), result(c.id(), 2)).await();
  }

  @Test
  @DisplayName("an edited re-run and a SQL runner's run are listed oldest first, with their origin and answer; a"
      + " result no one marked is not")
  void marksAreListed() {
    Conversation c = storage.createConversation(alice.id(), "Runs").await();
    saved(c);
    QueryResult edited = saved(c);
    QueryResult runner = saved(c);
    ResultRun first = storage.saveRun(alice.id(), new ResultRun(edited.id(), c.id(), ResultRun.EDITED, "answer-1",
        null)).await();
    storage.saveRun(alice.id(), new ResultRun(runner.id(), c.id(), ResultRun.RUNNER, null, null)).await();
    assertThat(first.createdAt()).isNotNull();

    List<ResultRun> runs = storage.runs(alice.id(), c.id()).await();
    assertThat(runs).extracting(ResultRun::resultId).containsExactly(edited.id(), runner.id());
    assertThat(runs).extracting(ResultRun::origin).containsExactly(ResultRun.EDITED, ResultRun.RUNNER);
    assertThat(runs).extracting(ResultRun::messageId).containsExactly("answer-1", null);
    assertThat(storage.runs(bob.id(), c.id()).await()).isEmpty();
  }

  @Test
  @DisplayName("a second delivery of a mark changes nothing")
  void markDeliveredTwice() {
    Conversation c = storage.createConversation(alice.id(), "Runs").await();
    String id = UUID.randomUUID().toString();
    storage.saveResult(alice.id(), result(c.id(), 1000).stored(id, Timestamps.now())).await();
    ResultRun run = new ResultRun(id, c.id(), ResultRun.RUNNER, null, null);
    ResultRun marked = storage.saveRun(alice.id(), run).await();
    ResultRun again = storage.saveRun(alice.id(), run).await();
    assertThat(again.createdAt()).isEqualTo(marked.createdAt());
    assertThat(storage.runs(alice.id(), c.id()).await()).hasSize(1);
  }

  @Test
  @DisplayName("another user's result, or a result of another conversation, is not found; an edited run needs its"
      + " answer; a deleted conversation takes its runs with it")
  void refusals() throws Exception {
    Conversation c = storage.createConversation(alice.id(), "Runs").await();
    Conversation other = storage.createConversation(alice.id(), "Other").await();
    QueryResult result = saved(c);
    assertFails(storage.saveRun(bob.id(), new ResultRun(result.id(), c.id(), ResultRun.RUNNER, null, null)),
        Failure.NOT_FOUND, "Result not found");
    assertFails(storage.saveRun(alice.id(), new ResultRun(result.id(), other.id(), ResultRun.RUNNER, null, null)),
        Failure.NOT_FOUND, "Result not found");
    assertThat(Failure.classify(failure(storage.saveRun(alice.id(),
        new ResultRun(result.id(), c.id(), ResultRun.EDITED, null, null))))).isEqualTo(Failure.BAD_REQUEST);
    assertThat(Failure.classify(failure(storage.saveRun(alice.id(),
        new ResultRun(result.id(), c.id(), "sorted", null, null))))).isEqualTo(Failure.BAD_REQUEST);

    storage.saveRun(alice.id(), new ResultRun(result.id(), c.id(), ResultRun.RUNNER, null, null)).await();
    storage.deleteConversation(alice.id(), c.id()).await();
    assertThat(count("SELECT count(*) FROM result_runs")).isZero();
  }
}
