package io.quarry.dataset;

import io.quarry.bus.DataFormat;
import io.quarry.bus.Dataset;
import io.quarry.bus.QueryResult;
import io.quarry.bus.Source;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Saves the wait for storage's look-up of a conversation's tables from a query's path: the query goes to
 * a worker at once with the tables the conversation had at its last query. It stays correct because no
 * answer is given before storage has named the tables: when they differ from the guess (a dataset added,
 * renamed, removed or loaded since), the query runs again over them and the early answer is dropped.
 * Remembers the 1,024 most recently queried conversations; used on the dataset verticle's event loop.
 */
final class GuessedTables {

  private static final int CONVERSATIONS = 1_024;

  /** The conversation's datasets as storage named them, and the answer computed over their tables. */
  record Confirmed(List<Dataset> datasets, Future<QueryResult> answer) {
  }

  /**
   * A query's tables (name → URL, in the order the datasets were added) and the versions of their files the datasets
   * record.
   */
  record Tables(Map<String, String> names, List<Source> recorded, Map<String, DataFormat> formats) {
  }

  private final Map<String, Tables> last = new LinkedHashMap<>(64, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Tables> eldest) {
      return size() > CONVERSATIONS;
    }
  };

  /** {@code runOver}: runs the query over tables. */
  Future<Confirmed> run(String userId, String conversationId, Supplier<Future<List<Dataset>>> datasets,
      Function<Tables, Future<QueryResult>> runOver) {
    String key = userId + '\u0000' + conversationId;
    Tables guess = last.get(key);
    Future<QueryResult> early = guess == null ? null : runOver.apply(guess);
    return datasets.get().map(named -> {
      Tables tables = tables(named);
      last.put(key, tables);
      return new Confirmed(named, tables.equals(guess) ? early : runOver.apply(tables));
    });
  }

  /** Ready datasets, and those in error so that a query names their URL's problem rather than a missing table. */
  private static Tables tables(List<Dataset> datasets) {
    Map<String, String> names = new LinkedHashMap<>();
    List<Source> recorded = new ArrayList<>();
    Map<String, DataFormat> formats = new LinkedHashMap<>();
    datasets.stream().filter(d -> !Dataset.LOADING.equals(d.status())).forEach(d -> {
      names.put(d.name(), d.url());
      recorded.add(new Source(d.name(), d.url(), d.etag(), null, d.fileSize()));
      if (d.dataFormat() != DataFormat.PARQUET) {
        formats.put(d.url(), d.dataFormat());
      }
    });
    return new Tables(Collections.unmodifiableMap(names), List.copyOf(recorded), Map.copyOf(formats));
  }
}
