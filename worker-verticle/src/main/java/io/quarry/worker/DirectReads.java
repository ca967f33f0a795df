package io.quarry.worker;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A table is a view of all the columns its copy holds, and through such a view DuckDB plans with the statistics of
 * every one of them, where reading the file directly it looks only at the columns a statement reads. Some files it
 * reads directly it cannot plan this way: another writer's shredded VARIANT whose shredded fields have no
 * {@code value} column ({@code StructStats::GetChildStats}), a column chunk whose value count disagrees with its row
 * group ("Parquet metadata is corrupt"), Drill's decimal statistics ("Invalid decimal encoding", duckdb/duckdb#15467).
 * A statement DuckDB cannot plan over such views runs over views of only the columns it reads (each other one a
 * placeholder, as a column not fetched is: {@link Placeholders}), which is what DuckDB reads of the file directly;
 * that file's later statements go that way at once. Every other file keeps its view of all columns, which a
 * conversation's statements share in one database whatever columns each reads: binding each statement's own columns
 * would remake the views for nearly every statement. Safe from any thread.
 */
final class DirectReads {

  /** One run of a statement over these bindings, in what is left of its time; see {@link Unplanned}. */
  interface Run<T> {
    T over(Map<String, Placeholders.Bound> bindings, long leftMs, boolean checkPlan) throws SQLException, IOException;
  }

  /**
   * Thrown by a run told to check the plan when DuckDB failed on a statement it cannot plan (EXPLAIN fails too): it
   * failed on what the views project. {@code failure}: what its caller would be told.
   */
  static final class Unplanned extends RuntimeException {
    final RuntimeException failure;

    Unplanned(RuntimeException failure) {
      super(failure.getMessage(), null, false, false);
      this.failure = failure;
    }
  }

  /** Files whose statements are bound to the columns they read, until the file leaves the cache. */
  private final Set<Path> files = ConcurrentHashMap.newKeySet();

  /**
   * Runs a statement over views of all columns, then, if DuckDB could not plan it, over views of only the columns it
   * reads. {@code ownDatabase}: the statement has a database of its own (an export), which it shares with no other
   * statement: there it reads only its columns at once. A placeholder of a held column that fires (the statement reads
   * a column that it does not name, which {@link Reads} knows of no way to do) falls back on the views of all columns.
   */
  <T> T run(Map<String, Placeholders.Bound> bindings, Reads reads, long timeoutMs, boolean ownDatabase, Run<T> run)
      throws SQLException, IOException {
    if (!narrower(bindings, reads)) {
      return run.over(bindings, timeoutMs, false);
    }
    long started = System.nanoTime();
    RuntimeException whole = null;
    if (!ownDatabase && !known(bindings, reads)) {
      try {
        return run.over(bindings, timeoutMs, true);
      } catch (Unplanned e) {
        whole = e.failure;
      }
    }
    try {
      T result = run.over(of(bindings, reads), left(timeoutMs, started), false);
      if (!ownDatabase) {
        remember(bindings, reads);
      }
      return result;
    } catch (Placeholders.Unfetched e) {
      Placeholders.Bound bound = bindings.get(e.missing.table());
      if (bound == null || bound.unfetched().get(e.missing.column())) {
        throw e;
      }
      if (whole != null) {
        throw whole;
      }
      return run.over(bindings, left(timeoutMs, started), false);
    }
  }

  /**
   * Whether binding the statement's tables to the columns it reads is narrower than their views of all columns: not
   * when it reads all columns (a star, a whole row, a {@code NATURAL} join) or no table.
   */
  private static boolean narrower(Map<String, Placeholders.Bound> bindings, Reads reads) {
    return !reads.allColumns() && reads.tables().stream().anyMatch(bindings::containsKey);
  }

  /** The bindings with every table the statement reads bound to only the columns it reads. */
  private static Map<String, Placeholders.Bound> of(Map<String, Placeholders.Bound> bindings, Reads reads) {
    Map<String, Placeholders.Bound> direct = new LinkedHashMap<>(bindings);
    reads.tables().forEach(table -> direct.computeIfPresent(table, (name, bound) -> bound.reading(reads.names())));
    return direct;
  }

  /** Whether a table the statement reads is over a file that is read this way. */
  private boolean known(Map<String, Placeholders.Bound> bindings, Reads reads) {
    return reads.tables().stream().map(bindings::get).anyMatch(b -> b != null && files.contains(b.file()));
  }

  /**
   * The files of the tables a statement reads (which of them DuckDB could not plan is not known: all of them) are read
   * this way from now on.
   */
  private void remember(Map<String, Placeholders.Bound> bindings, Reads reads) {
    reads.tables().stream().map(bindings::get).filter(Objects::nonNull).forEach(b -> files.add(b.file()));
  }

  /** A file that left the cache. */
  void forget(Path file) {
    files.remove(file);
  }

  private static long left(long timeoutMs, long started) {
    return Math.max(1, timeoutMs - (System.nanoTime() - started) / 1_000_000);
  }
}
