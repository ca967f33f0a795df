package io.quarry.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.Failure;
import io.vertx.core.Future;

/** How a test looks at a request that must fail. */
public final class Failures {

  private Failures() {
  }

  /** The failure {@code future} ends with; an assertion error if it succeeds. */
  public static Throwable failure(Future<?> future) {
    try {
      future.await();
    } catch (Throwable t) {
      return t;
    }
    throw new AssertionError("expected a failure");
  }

  /** The failure as the caller reads it: its code, and its message without details. */
  public static void assertFails(Future<?> future, Failure code, String message) {
    Throwable t = failure(future);
    assertThat(Failure.classify(t)).isEqualTo(code);
    assertThat(Failure.messageOf(t)).isEqualTo(message);
  }
}
