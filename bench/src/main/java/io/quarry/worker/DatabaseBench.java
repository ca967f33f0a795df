package io.quarry.worker;

import io.quarry.bench.LoadStats;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * What a new database costs a worker: opening one as {@link DuckInstances} does (one per set of tables a conversation
 * queries, and the spares {@link SpareDatabases} keeps) and closing it, against a trivial query on a database already
 * open, alternately in one JVM, in CPU of the calling thread (DuckDB builds a database's catalog on it) and wall time.
 * With one DuckDB thread and with two (the default {@code worker.duckdbThreads}). In the worker's package, since
 * {@code newDatabase} is its own.
 */
public final class DatabaseBench {

  private static final int ROUNDS = 7;
  private static final int PER_ROUND = 40;
  private static final int QUERIES_PER_ROUND = 2_000;
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private record Cost(double cpuMs, double wallMs) {
  }

  private DatabaseBench() {
  }

  public static void main(String[] args) throws SQLException {
    try (Connection open = DuckInstances.newDatabase(2); Statement statement = open.createStatement()) {
      for (int threads : new int[] {2, 1}) {
        List<Cost> opens = new ArrayList<>();
        List<Cost> closes = new ArrayList<>();
        List<Cost> queries = new ArrayList<>();
        for (int round = 0; round < ROUNDS; round++) {
          openAndClose(threads, opens, closes);
          queries.add(trivialQueries(statement));
        }
        // The first two rounds load and compile what the others run.
        report(threads, opens.subList(2, ROUNDS), closes.subList(2, ROUNDS), queries.subList(2, ROUNDS));
      }
    }
  }

  private static void openAndClose(int threads, List<Cost> opens, List<Cost> closes) throws SQLException {
    long openCpu = 0;
    long openWall = 0;
    long closeCpu = 0;
    long closeWall = 0;
    for (int i = 0; i < PER_ROUND; i++) {
      long cpu0 = THREADS.getCurrentThreadCpuTime();
      long wall0 = System.nanoTime();
      Connection database = DuckInstances.newDatabase(threads);
      long cpu1 = THREADS.getCurrentThreadCpuTime();
      long wall1 = System.nanoTime();
      database.close();
      closeCpu += THREADS.getCurrentThreadCpuTime() - cpu1;
      closeWall += System.nanoTime() - wall1;
      openCpu += cpu1 - cpu0;
      openWall += wall1 - wall0;
    }
    opens.add(new Cost(openCpu / 1e6 / PER_ROUND, openWall / 1e6 / PER_ROUND));
    closes.add(new Cost(closeCpu / 1e6 / PER_ROUND, closeWall / 1e6 / PER_ROUND));
  }

  private static Cost trivialQueries(Statement statement) throws SQLException {
    long cpu0 = THREADS.getCurrentThreadCpuTime();
    long wall0 = System.nanoTime();
    for (int i = 0; i < QUERIES_PER_ROUND; i++) {
      try (ResultSet rs = statement.executeQuery("SELECT 42 AS n")) {
        rs.next();
      }
    }
    return new Cost((THREADS.getCurrentThreadCpuTime() - cpu0) / 1e6 / QUERIES_PER_ROUND,
        (System.nanoTime() - wall0) / 1e6 / QUERIES_PER_ROUND);
  }

  private static void report(int threads, List<Cost> opens, List<Cost> closes, List<Cost> queries) {
    double open = median(opens, Cost::cpuMs);
    double close = median(closes, Cost::cpuMs);
    double query = median(queries, Cost::cpuMs);
    System.out.printf(Locale.ROOT, "%d DuckDB thread(s), medians of %d rounds after 2 to warm up: open %.2f ms CPU"
            + " (%.2f wall), close %.2f ms CPU (%.2f wall); a trivial query on an open database %.3f ms CPU"
            + " (%.3f wall);"
            + " open and close = %.0fx a trivial query%n", threads, opens.size(), open, median(opens, Cost::wallMs),
        close, median(closes, Cost::wallMs), query, median(queries, Cost::wallMs), (open + close) / query);
  }

  private static double median(List<Cost> costs, ToDoubleFunction<Cost> field) {
    return LoadStats.median(costs.stream().map(field::applyAsDouble).toList());
  }
}
