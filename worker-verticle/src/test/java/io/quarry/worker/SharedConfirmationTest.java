package io.quarry.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.Source;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A copy's freshness with a confirmation its node passed on: another worker of the node asked the origin later than
 * this one did; within the window of that confirmation the copy is used unasked too.
 */
class SharedConfirmationTest {

  static final Instant NOW = Instant.parse("2026-11-26T12:00:00Z");
  static final long WINDOW_MS = 60_000;

  /** A copy this worker's origin confirmed 90 s ago: past its own window. */
  final CachedCopies.Entry held = new CachedCopies.Entry(Path.of("copy.parquet"), "\"v1\"", null, 1_000,
      NOW.minusSeconds(90), WINDOW_MS);

  private static Source confirmed(Instant at) {
    return new Source("t", "https://example.org/f.parquet", "\"v1\"", null, 1_000L, at.toString());
  }

  @Test
  @DisplayName("stale by its own confirmation, fresh by one made elsewhere 10 s ago; stale again once that is 60 s old")
  void sharedConfirmation() {
    assertThat(held.fresh(NOW, null)).isFalse();
    assertThat(held.fresh(NOW, confirmed(NOW.minusSeconds(10)))).isTrue();
    assertThat(held.fresh(NOW, confirmed(NOW.minusSeconds(60)))).isFalse();
  }

  @Test
  @DisplayName("a confirmation older than the copy's own changes nothing; one from a clock ahead, or one that is not a"
      + " time, is not trusted")
  void oddConfirmations() {
    CachedCopies.Entry recent = new CachedCopies.Entry(Path.of("copy.parquet"), "\"v1\"", null, 1_000,
        NOW.minusSeconds(30), WINDOW_MS);
    assertThat(recent.fresh(NOW, confirmed(NOW.minusSeconds(300)))).isTrue();
    assertThat(held.fresh(NOW, confirmed(NOW.plusSeconds(3_600)))).isFalse();
    assertThat(held.fresh(NOW, new Source("t", "u", "\"v1\"", null, 1_000L, "yesterday"))).isFalse();
  }
}
