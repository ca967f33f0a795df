package io.quarry.chat;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The back-off's arithmetic, on a clock the test moves. */
class ThrottleTest {

  final AtomicLong now = new AtomicLong(1_000_000);
  final Throttle throttle = new Throttle(now::get, 60_000, 3);
  final Throttle.Rule rule = new Throttle.Rule(3, 1_000, 8_000);

  @Test
  @DisplayName("the free failures cost nothing; then each blocks twice as long as the last, up to the cap")
  void backsOff() {
    for (int i = 0; i < 3; i++) {
      assertThat(throttle.waitMs("k")).isZero();
      throttle.count("k", rule);
    }
    assertThat(throttle.waitMs("k")).isZero();
    long[] expected = {1_000, 2_000, 4_000, 8_000, 8_000};
    for (long wait : expected) {
      throttle.count("k", rule);
      assertThat(throttle.waitMs("k")).isEqualTo(wait);
      now.addAndGet(wait - 1);
      assertThat(throttle.waitMs("k")).isEqualTo(1);
      now.addAndGet(1);
      assertThat(throttle.waitMs("k")).isZero();
    }
  }

  @Test
  @DisplayName("a success clears a key; a forgiven attempt takes its failure back and lifts a block it caused")
  void successAndForgiveness() {
    for (int i = 0; i < 4; i++) {
      throttle.count("k", rule);
    }
    assertThat(throttle.waitMs("k")).isEqualTo(1_000);
    throttle.forgive("k", rule);
    assertThat(throttle.waitMs("k")).isZero();
    throttle.count("k", rule);
    assertThat(throttle.waitMs("k")).isEqualTo(1_000);
    throttle.succeeded("k");
    assertThat(throttle.waitMs("k")).isZero();
    throttle.count("k", rule);
    assertThat(throttle.waitMs("k")).as("counting starts afresh").isZero();
  }

  @Test
  @DisplayName("failures are forgotten a while after the last one, and only the most recent keys are kept")
  void forgetsAndStaysBounded() {
    for (int i = 0; i < 5; i++) {
      throttle.count("k", rule);
    }
    now.addAndGet(60_001);
    assertThat(throttle.waitMs("k")).isZero();
    throttle.count("k", rule);
    assertThat(throttle.waitMs("k")).as("forgotten: a first failure again").isZero();

    for (String key : new String[] {"a", "b", "c", "d"}) {
      for (int i = 0; i < 4; i++) {
        throttle.count(key, rule);
      }
    }
    assertThat(throttle.waitMs("a")).as("the eldest of four keys, with room for three").isZero();
    assertThat(throttle.waitMs("d")).isEqualTo(1_000);
  }
}
