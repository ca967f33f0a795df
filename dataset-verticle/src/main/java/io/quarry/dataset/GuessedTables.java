package io.quarry.dataset;

import io.quarry.bus.Dataset;
import io.quarry.bus.QueryResult;
import io.vertx.core.Future;
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

  private final Map<String, Map<String, String>> last = new LinkedHashMap<>(64, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Map<String, String>> eldest) {
      return size() > CONVERSATIONS;
    }
  };

  /** {@code runOver}: runs the query over tables (name → URL). */
  Future<Confirmed> run(String userId, String conversationId, Supplier<Future<List<Dataset>>> datasets,
      Function<Map<String, String>, Future<QueryResult>> runOver) {
    String key = userId + '\u0000' + conversationId;
    Map<String, String> guess = last.get(key);
    Future<QueryResult> early = guess == null ? null : runOver.apply(guess);
    return datasets.get().map(named -> {
      Map<String, String> tables = tables(named);
      last.put(key, Map.copyOf(tables));
      return new Confirmed(named, tables.equals(guess) ? early : runOver.apply(tables));
    });
  }

  /** Ready datasets, and those in error so that a query names their URL's problem rather than a missing table. */
  private static Map<String, String> tables(List<Dataset> datasets) {
    Map<String, String> tables = new LinkedHashMap<>();
    datasets.stream().filter(d -> !Dataset.LOADING.equals(d.status())).forEach(d -> tables.put(d.name(), d.url()));
    return tables;
  }
}
