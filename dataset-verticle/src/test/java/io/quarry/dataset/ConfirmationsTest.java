package io.quarry.dataset;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.Source;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** What a node passes on to its workers of the confirmations their results reported. */
class ConfirmationsTest {

  static final String URL = "https://data.example.com/sales.parquet";

  private static Source recorded(String version, Long size) {
    return new Source("sales", URL, version, null, size);
  }

  private static Source confirmed(String etag, String lastModified, long size, String at) {
    return new Source("sales", URL, etag, lastModified, size, at);
  }

  @Test
  @DisplayName("the latest confirmation of the very version a dataset records is passed on; an earlier one does not"
      + " replace it")
  void latestOfTheVersion() {
    Confirmations confirmations = new Confirmations();
    assertThat(confirmations.confirm(List.of(recorded("\"v1\"", 10L))).get(0).confirmedAt()).isNull();
    confirmations.learn(List.of(confirmed("\"v1\"", null, 10, "2026-11-26T12:00:10Z")));
    confirmations.learn(List.of(confirmed("\"v1\"", null, 10, "2026-11-26T12:00:05Z")));
    Source passed = confirmations.confirm(List.of(recorded("\"v1\"", 10L))).get(0);
    assertThat(passed.confirmedAt()).isEqualTo("2026-11-26T12:00:10Z");
    assertThat(passed.etag()).isEqualTo("\"v1\"");
    assertThat(passed.table()).isEqualTo("sales");
  }

  @Test
  @DisplayName("a confirmation of another version (ETag or size), or for a dataset that records no version, is not"
      + " passed on; a server without ETags is matched by its Last-Modified")
  void onlyTheSameVersion() {
    Confirmations confirmations = new Confirmations();
    confirmations.learn(List.of(confirmed("\"v2\"", null, 10, "2026-11-26T12:00:10Z")));
    assertThat(confirmations.confirm(List.of(recorded("\"v1\"", 10L))).get(0).confirmedAt()).isNull();
    assertThat(confirmations.confirm(List.of(recorded(null, 10L))).get(0).confirmedAt()).isNull();
    confirmations.learn(List.of(confirmed("\"v2\"", null, 11, "2026-11-26T12:00:20Z")));
    assertThat(confirmations.confirm(List.of(recorded("\"v2\"", 10L))).get(0).confirmedAt()).isNull();

    Confirmations dated = new Confirmations();
    dated.learn(List.of(confirmed(null, "Wed, 25 Nov 2026 10:00:00 GMT", 10, "2026-11-26T12:00:10Z")));
    assertThat(dated.confirm(List.of(recorded("Wed, 25 Nov 2026 10:00:00 GMT", 10L))).get(0).confirmedAt())
        .isEqualTo("2026-11-26T12:00:10Z");
  }

  @Test
  @DisplayName("at most 10,000 files are remembered, the least recently learned forgotten first")
  void bounded() {
    Confirmations confirmations = new Confirmations();
    for (int i = 0; i <= Confirmations.MAX_FILES; i++) {
      confirmations.learn(List.of(new Source("t", URL + "?" + i, "\"v\"", null, 1L, "2026-11-26T12:00:00Z")));
    }
    assertThat(confirmations.confirm(List.of(new Source("t", URL + "?0", "\"v\"", null, 1L))).get(0).confirmedAt())
        .isNull();
    assertThat(confirmations.confirm(List.of(new Source("t", URL + "?1", "\"v\"", null, 1L))).get(0).confirmedAt())
        .isNotNull();
  }
}
