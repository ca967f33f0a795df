package io.quarry.worker;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.duckdb.DuckDBConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Empty databases opened ahead of need, and used ones closed after, on a thread of their own. Opening a database
 * costs about 30 ms of CPU and closing one 3 ms (bench/run.sh databases, DuckDB 2.0): a file's add, over a far
 * origin, paid 30–50 ms beyond its round trips for the two its first query then needed (its layout's has since gone
 * to a database the worker keeps). Thread-safe: taken from worker threads.
 */
final class SpareDatabases implements AutoCloseable {

  /** One for each of a worker's two threads: two queries over bindings new to it, at once. */
  static final int COUNT = 2;

  private static final Logger LOG = LoggerFactory.getLogger(SpareDatabases.class);

  private final int threads;
  private final BlockingQueue<DuckDBConnection> ready = new ArrayBlockingQueue<>(COUNT);
  private final ExecutorService opener = Executors.newSingleThreadExecutor(task -> {
    Thread thread = new Thread(task, "quarry-spare-databases");
    thread.setDaemon(true);
    return thread;
  });
  private volatile boolean closed;
  private final AtomicLong taken = new AtomicLong();

  /** {@code threads}: DuckDB's threads per database, fixed as it opens. None is opened before {@link #fill}. */
  SpareDatabases(int threads) {
    this.threads = threads;
  }

  /** Starts opening the spares; completes once they are open (or could not be). */
  CompletableFuture<Void> fill() {
    for (int i = 0; i < COUNT; i++) {
      later(this::openOne);
    }
    CompletableFuture<Void> filled = new CompletableFuture<>();
    if (!later(() -> filled.complete(null))) {
      filled.complete(null);
    }
    return filled;
  }

  /** How many are open and waiting. */
  int ready() {
    return ready.size();
  }

  /** An empty database, unlimited and unlocked: a spare if one is ready, else one opened now (blocks). */
  DuckDBConnection take() throws SQLException {
    taken.incrementAndGet();
    DuckDBConnection spare = ready.poll();
    later(this::openOne);
    return spare != null ? spare : DuckInstances.newDatabase(threads);
  }

  /** How many databases were taken so far. */
  long taken() {
    return taken.get();
  }

  /** Closes a database nobody uses any more, off the caller's path. */
  void retire(Connection used) {
    if (!later(() -> closeQuietly(used))) {
      closeQuietly(used);
    }
  }

  private void openOne() {
    if (closed || ready.remainingCapacity() == 0) {
      return;
    }
    try {
      DuckDBConnection opened = DuckInstances.newDatabase(threads);
      if (closed || !ready.offer(opened)) {
        closeQuietly(opened);
      }
    } catch (SQLException e) {
      // The query that needs one opens it itself, and says why if it cannot.
      LOG.debug("Could not open a spare database", e);
    }
  }

  private boolean later(Runnable task) {
    try {
      opener.execute(task);
      return true;
    } catch (RejectedExecutionException closing) {
      return false;
    }
  }

  private static void closeQuietly(Connection connection) {
    try {
      connection.close();
    } catch (SQLException ignored) {
      // Closing an in-memory database cannot lose anything.
    }
  }

  /** Blocks until the databases being opened or closed are, then closes the spares. */
  @Override
  public void close() {
    closed = true;
    opener.shutdown();
    try {
      opener.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    for (DuckDBConnection spare = ready.poll(); spare != null; spare = ready.poll()) {
      closeQuietly(spare);
    }
  }
}
