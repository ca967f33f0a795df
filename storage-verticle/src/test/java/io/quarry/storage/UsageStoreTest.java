package io.quarry.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.Conversation;
import io.quarry.bus.TokenUsage;
import io.quarry.bus.Timestamps;
import io.quarry.bus.UsageWindow;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Token usage, summed over a window. */
class UsageStoreTest extends StorageTestBase {

  @Test
  @DisplayName("token usage sums inside the window and survives deleting its conversation")
  void usage() {
    Conversation c = storage.createConversation(alice.id(), "Tokens").await();
    Instant now = Instant.now();
    storage.recordUsage(new TokenUsage(alice.id(), c.id(), "gemini-2.5-flash", 100, 20,
        Timestamps.format(now.minus(Duration.ofHours(25))))).await();
    storage.recordUsage(new TokenUsage(alice.id(), c.id(), "gemini-2.5-flash", 300, 40,
        Timestamps.format(now.minus(Duration.ofHours(2))))).await();
    storage.recordUsage(new TokenUsage(alice.id(), c.id(), "gemini-2.5-flash", 5, 1, null)).await();
    storage.recordUsage(new TokenUsage(bob.id(), null, "gemini-2.5-flash", 999, 999, null)).await();

    String since = Timestamps.format(now.minus(Duration.ofHours(24)));
    var window = storage.usageSince(alice.id(), since).await();
    assertThat(window.inputTokens()).isEqualTo(305);
    assertThat(window.outputTokens()).isEqualTo(41);
    assertThat(window.oldestAt()).isEqualTo(Timestamps.format(now.minus(Duration.ofHours(2))));

    storage.deleteConversation(alice.id(), c.id()).await();
    assertThat(storage.usageSince(alice.id(), since).await().total()).isEqualTo(346);
    assertThat(storage.usageSince(bob.id(), Timestamps.format(now.plusSeconds(3600))).await().total()).isZero();
  }

  @Test
  @DisplayName("a window with an estimated record (a model server that gave no counts) says so; one without, not")
  void estimated() {
    Instant now = Instant.now();
    String since = Timestamps.format(now.minus(Duration.ofHours(24)));
    storage.recordUsage(new TokenUsage(alice.id(), null, "gemini-2.5-flash", 10, 2, null)).await();
    assertThat(storage.usageSince(alice.id(), since).await().estimated()).isFalse();
    storage.recordUsage(new TokenUsage(alice.id(), null, "qwen2.5:14b", 250, 40, null, true)).await();
    var window = storage.usageSince(alice.id(), since).await();
    assertThat(window.estimated()).isTrue();
    assertThat(window.total()).isEqualTo(302);
    assertThat(storage.usageSince(bob.id(), since).await().estimated()).isFalse();
  }

  @Test
  @DisplayName("each use is listed, oldest first, once the window's total reaches what was asked, and not below it")
  void listedAtTotal() {
    Instant now = Instant.now();
    String since = Timestamps.format(now.minus(Duration.ofHours(24)));
    String older = Timestamps.format(now.minus(Duration.ofHours(3)));
    storage.recordUsage(new TokenUsage(alice.id(), null, "gemini-2.5-flash", 300, 40, null)).await();
    storage.recordUsage(new TokenUsage(alice.id(), null, "gemini-2.5-flash", 50, 10, older)).await();

    var atTotal = storage.usageSince(alice.id(), since, 400).await();
    assertThat(atTotal.total()).isEqualTo(400);
    assertThat(atTotal.entries()).extracting(UsageWindow.Entry::tokens).containsExactly(60L, 340L);
    assertThat(atTotal.entries().get(0).createdAt()).isEqualTo(older);
    assertThat(atTotal.entries().get(1).createdAt()).isGreaterThan(older);
    var below = storage.usageSince(alice.id(), since, 401).await();
    assertThat(below.entries()).isEmpty();
    assertThat(below.total()).isEqualTo(400);
    assertThat(below.oldestAt()).isEqualTo(older);
    assertThat(storage.usageSince(alice.id(), since).await().entries()).hasSize(2);
    assertThat(storage.usageSince(bob.id(), since, 1).await().entries()).isEmpty();
  }
}
