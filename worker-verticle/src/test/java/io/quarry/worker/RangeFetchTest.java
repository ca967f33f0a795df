package io.quarry.worker;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class RangeFetchTest {

  @Test
  @DisplayName("a transfer has up to 32 requests under way in a heap of 256 MB or more (two 1 MB blocks each: a quarter"
      + " of it), fewer in a smaller one, never below 8")
  void streamsFitTheHeap() {
    assertThat(RangeFetch.maxStreams(8L << 30)).isEqualTo(RangeFetch.MAX_STREAMS).isEqualTo(32);
    assertThat(RangeFetch.maxStreams(256L << 20)).isEqualTo(32);
    assertThat(RangeFetch.maxStreams(255L << 20)).isEqualTo(31);
    assertThat(RangeFetch.maxStreams(128L << 20)).isEqualTo(16);
    assertThat(RangeFetch.maxStreams(64L << 20)).isEqualTo(8);
    assertThat(RangeFetch.maxStreams(16L << 20)).isEqualTo(8);
  }
}
