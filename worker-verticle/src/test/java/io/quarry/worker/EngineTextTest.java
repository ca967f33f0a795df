package io.quarry.worker;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.BitSet;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class EngineTextTest {

  private static final Path HOME = Path.of("/srv/quarry/data/worker-local-2");
  private static final Path COPY = HOME.resolve("cache/0f3a-1.parquet");
  private static final Map<String, Placeholders.Bound> BINDINGS = Map.of("trips",
      new Placeholders.Bound(COPY, new BitSet(), "https://example.com/trips.parquet"));

  @Test
  @DisplayName("a message names a cached copy by its table and URL, any other path under the worker's folder not at"
      + " all, and keeps no stack trace")
  void noPathsNoStack() {
    String duckdb = "Invalid Error: Prefetch registered for bytes outside file: " + COPY + ", attempted range: 12-40\n"
        + "spill at " + HOME.resolve("spill/db-3/tmp.block") + "\n\nStack Trace:\n\n"
        + "0        duckdb::Exception::Exception() + 52\n1        /usr/lib/libduckdb_java.so(+0x1234) [0x7f]\n";
    String clean = EngineText.clean(duckdb, BINDINGS, HOME);
    assertThat(clean).isEqualTo("Invalid Error: Prefetch registered for bytes outside file: table trips"
        + " (https://example.com/trips.parquet), attempted range: 12-40\nspill at a cached file");
  }

  @Test
  @DisplayName("DuckDB's INTERNAL errors are told apart from errors in the statement")
  void internal() {
    assertThat(EngineText.internal("INTERNAL Error: Calling StructStats::GetChildStats but there are no stats for"
        + " this index\nThis error signals an assertion failure within DuckDB.")).isTrue();
    assertThat(EngineText.internal("Binder Error: Referenced column \"x\" not found")).isFalse();
    assertThat(EngineText.internal("Binder Error: column 'INTERNAL Error: x' is a string")).isFalse();
  }
}
