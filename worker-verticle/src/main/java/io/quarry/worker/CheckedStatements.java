package io.quarry.worker;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;

/**
 * Saves parsing a statement again (it costs as much as running a small query) and, for a statement seen
 * before, the trip to a worker thread: a re-run, or the chart of a result, repeats its statement. It stays
 * correct because {@link SqlGuard}'s verdict depends only on the statement's text and the names of the
 * tables it may read, which together are the key; only accepted statements are kept. At most 512 of up
 * to 10,000 characters each, the least recently used leaving first; safe from any thread.
 */
final class CheckedStatements {

  private static final int ENTRIES = 512;
  private static final int MAX_CHARS = 10_000;

  private final Map<String, Reads> accepted = Collections.synchronizedMap(new LinkedHashMap<>(64, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Reads> eldest) {
      return size() > ENTRIES;
    }
  });

  /** What an accepted statement reads, or null when it was not seen (or is too long to keep). */
  Reads reads(String sql, Collection<String> tables) {
    return sql.length() <= MAX_CHARS ? accepted.get(key(sql, tables)) : null;
  }

  void accepted(String sql, Collection<String> tables, Reads read) {
    if (sql.length() <= MAX_CHARS) {
      accepted.put(key(sql, tables), read);
    }
  }

  private static String key(String sql, Collection<String> tables) {
    return String.join("\n", new TreeSet<>(tables)) + "\u0000" + sql;
  }
}
