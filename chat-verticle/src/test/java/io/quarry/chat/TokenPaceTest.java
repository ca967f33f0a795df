package io.quarry.chat;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.Failure;
import io.quarry.bus.QuarryException;
import io.quarry.bus.StorageOps.TokenUser;
import io.quarry.bus.TokenScope;
import io.quarry.bus.User;
import io.vertx.core.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Each token's pace of requests ({@link TokenPace}), on a clock the test moves: the door another door (MCP) calls. */
class TokenPaceTest {

  final AtomicLong now = new AtomicLong(1_000_000);
  /** 600 a minute (one each 100 ms) after a burst of 5. */
  final TokenPace pace = new TokenPace(now::get, 600, 5);
  final User ada = new User("ada", "ada@example.com", "2026-01-01T00:00:00.000Z");
  final TokenUser first = new TokenUser(ada, TokenScope.CHAT, "first");
  final TokenUser second = new TokenUser(ada, TokenScope.CHAT, "second");

  @Test
  @DisplayName("at the burst the 5th request passes and the 6th is RATE_LIMITED naming the limit; 100 ms later one"
      + " more passes; another token of the same user is not held back")
  void atTheLimitAndPast() {
    for (int i = 0; i < 5; i++) {
      assertThat(pace.check(first).succeeded()).as("request " + (i + 1)).isTrue();
    }
    Future<TokenUser> past = pace.check(first);
    assertThat(past.failed()).isTrue();
    assertThat(Failure.classify(past.cause())).isEqualTo(Failure.RATE_LIMITED);
    assertThat(past.cause().getMessage()).isEqualTo("Too many requests with this token: it may make 600 a minute"
        + " after a burst of 5 (chat.tokenRequestsPerMinute, chat.tokenBurst); try again in 1 second");
    assertThat(((QuarryException) past.cause()).fields().getLong("resets_in_seconds")).isEqualTo(1);
    assertThat(pace.check(second).succeeded()).isTrue();

    now.addAndGet(99);
    assertThat(pace.check(first).failed()).as("99 ms: not yet").isTrue();
    now.addAndGet(1);
    assertThat(pace.check(first).succeeded()).as("100 ms: one more").isTrue();
    assertThat(pace.check(first).failed()).isTrue();
  }
}
