package io.quarry.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.testing.ParquetFixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The databases a worker keeps, one per set of table bindings. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DuckInstancesTest {

  @TempDir
  Path dir;

  Path file;
  DuckInstances instances;

  @BeforeEach
  void file() {
    file = dir.resolve("numbers.parquet");
    ParquetFixtures.create(file, "SELECT range AS n FROM range(10)");
  }

  @AfterEach
  void close() {
    if (instances != null) {
      instances.close();
    }
  }

  private int open(int keep) throws Exception {
    instances = new DuckInstances(new DuckInstances.Limits("1GB", 2, 2, keep, dir));
    return instances.open();
  }

  /** A conversation's bindings: its own table name over the file. */
  private static Map<String, Placeholders.Bound> conversation(Path file, int n) {
    return Map.of("table" + n, new Placeholders.Bound(file, new java.util.BitSet(), "http://127.0.0.1/table" + n));
  }

  private long count(Map<String, Placeholders.Bound> bindings) throws Exception {
    DuckInstances.Instance instance = instances.lease(bindings);
    try (Connection c = instance.connect(); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT count(*) FROM " + bindings.keySet().iterator().next())) {
      rs.next();
      return rs.getLong(1);
    } finally {
      instances.release(instance);
    }
  }

  @Test
  @DisplayName("sized from memory (no cap: as many as fit in one 1GB memory limit at what an idle one maps, less the "
      + "spares), thirty conversations keep theirs: asked again, none is made anew")
  void thirtyConversationsKeepTheirDatabases() throws Exception {
    int kept = open(0);
    assertThat(instances.idleBytes()).as("one background thread's stack and 4 MB")
        .isEqualTo(DatabaseBudget.idleDatabaseBytes(2, ProcessMemory.stackLimit()));
    assertThat(kept).isEqualTo(DatabaseBudget.databases("1GB", 2, instances.idleBytes(), 0, 0) - SpareDatabases.COUNT)
        .isGreaterThanOrEqualTo(30);
    for (int i = 1; i <= 30; i++) {
      assertThat(count(conversation(file, i))).isEqualTo(10);
    }
    int made = instances.created();
    for (int i = 1; i <= 30; i++) {
      count(conversation(file, i));
    }
    assertThat(instances.created()).isEqualTo(made);
    assertThat(instances.kept()).isEqualTo(30);
  }

  @Test
  @DisplayName("past what it may keep, the least recently used database goes and is made again when asked")
  void leastRecentlyUsedGoes() throws Exception {
    assertThat(open(2)).isEqualTo(2);
    count(conversation(file, 1));
    count(conversation(file, 2));
    count(conversation(file, 1));
    int made = instances.created();
    count(conversation(file, 3)); // conversation 2 is the least recently used: it goes
    count(conversation(file, 1));
    assertThat(instances.created()).isEqualTo(made + 1);
    count(conversation(file, 2));
    assertThat(instances.created()).isEqualTo(made + 2);
    assertThat(instances.kept()).isEqualTo(2);
  }

  @Test
  @DisplayName("a database evicted while a query uses it stays usable until that query releases it")
  void evictedWhileInUse() throws Exception {
    open(1);
    DuckInstances.Instance held = instances.lease(conversation(file, 1));
    count(conversation(file, 2));
    try (Connection c = held.connect(); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT sum(n) FROM table1")) {
      rs.next();
      assertThat(rs.getLong(1)).isEqualTo(45);
    }
    instances.release(held);
    assertThat(instances.kept()).isEqualTo(1);
  }

  @Test
  @DisplayName("eight queries that want the same missing database at once make it once")
  void madeOnceForMany() throws Exception {
    open(0);
    int made = instances.created();
    ExecutorService threads = Executors.newFixedThreadPool(8);
    CountDownLatch go = new CountDownLatch(1);
    List<CompletableFuture<Long>> counts = new ArrayList<>();
    try {
      for (int i = 0; i < 8; i++) {
        counts.add(CompletableFuture.supplyAsync(() -> {
          try {
            go.await();
            return count(conversation(file, 1));
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        }, threads));
      }
      go.countDown();
      assertThat(counts).allSatisfy(c -> assertThat(c.get(30, TimeUnit.SECONDS)).isEqualTo(10));
    } finally {
      threads.shutdownNow();
    }
    assertThat(instances.created()).isEqualTo(made + 1);
  }

  @Test
  @DisplayName("a copy that gained a column gets its database remade, not a new one: the column reads, and a column"
      + " still missing fires its own placeholder")
  void remadeWhenColumnsArrive() throws Exception {
    Path wide = dir.resolve("wide.parquet");
    ParquetFixtures.create(wide, "SELECT range AS a, range * 2 AS b, range * 3 AS c FROM range(10)");
    open(0);
    assertThat(read(sparse(wide, 1, 2), "SELECT sum(a) FROM t")).isEqualTo("45");
    int made = instances.created();

    assertThat(read(sparse(wide, 2), "SELECT sum(b) FROM t")).isEqualTo("90");
    assertThat(read(sparse(wide, 2), "SELECT sum(c) FROM t")).startsWith("missing t.2");
    assertThat(instances.created()).isEqualTo(made);
    assertThat(instances.remade()).isEqualTo(1);
    assertThat(instances.kept()).isEqualTo(1);
  }

  @Test
  @DisplayName("a database a query still uses is not remade under it: the copy's new state gets a new database")
  void inUseNotRemade() throws Exception {
    Path wide = dir.resolve("wide.parquet");
    ParquetFixtures.create(wide, "SELECT range AS a, range * 2 AS b FROM range(10)");
    open(0);
    DuckInstances.Instance held = instances.lease(sparse(wide, 1));
    int made = instances.created();
    assertThat(read(sparse(wide), "SELECT sum(b) FROM t")).isEqualTo("90");
    assertThat(instances.created()).isEqualTo(made + 1);
    assertThat(instances.remade()).isZero();
    try (Connection c = held.connect(); Statement s = c.createStatement()) {
      assertThat(s.executeQuery("SELECT sum(a) FROM t").next()).isTrue();
    } finally {
      instances.release(held);
    }
  }

  /** Table t over {@code file}, as a copy that lacks the columns at these positions. */
  private static Map<String, Placeholders.Bound> sparse(Path file, int... unfetched) {
    BitSet missing = new BitSet();
    for (int column : unfetched) {
      missing.set(column);
    }
    return Map.of("t", new Placeholders.Bound(file, missing, "http://127.0.0.1/t"));
  }

  /** The first value of a statement's answer, or "missing table.column" when a placeholder fired. */
  private String read(Map<String, Placeholders.Bound> bindings, String sql) throws Exception {
    DuckInstances.Instance instance = instances.lease(bindings);
    try (Connection c = instance.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getString(1);
    } catch (SQLException e) {
      return Placeholders.fired(e.getMessage(), instance.placeholders)
          .map(m -> "missing " + m.table() + "." + m.column()).orElseThrow(() -> e);
    } finally {
      instances.release(instance);
    }
  }

  @Test
  @DisplayName("a database starts no threads for asynchronous I/O (eight of them made an idle database map 77 MB)")
  void noAsyncThreads() throws Exception {
    open(0);
    assertThat(setting("async_threads")).isZero();
  }

  @Test
  @DisplayName("a database runs the configured query threads, not one per core")
  void queryThreads() throws Exception {
    instances = new DuckInstances(new DuckInstances.Limits("1GB", Runtime.getRuntime().availableProcessors() + 1, 2, 0,
        dir));
    instances.open();
    assertThat(setting("threads")).isEqualTo(Runtime.getRuntime().availableProcessors() + 1);
  }

  @Test
  @DisplayName("a database is limited as it is made: its memory, its spill directory, its own files only, no external"
      + " access, and its configuration locked; Parquet prefetching on, and files' footers kept between its queries")
  void limited() throws Exception {
    open(0);
    assertThat(text("memory_limit")).isEqualTo("953.6 MiB");
    assertThat(text("temp_directory")).startsWith(dir.resolve("spill").toString());
    assertThat(text("allowed_paths")).isEqualTo("[" + file + "]");
    assertThat(text("enable_external_access")).isEqualTo("false");
    assertThat(text("lock_configuration")).isEqualTo("true");
    // Parquet prefetching stays on: DuckDB 2.0's reader without it makes ~50 times the reads (duckdb #25704), and it
    // coalesces the column chunks a query reads from its file.
    assertThat(text("disable_parquet_prefetching")).isEqualTo("false");
    assertThat(text("parquet_metadata_cache")).isEqualTo("true");
  }

  @Test
  @DisplayName("new copies' layouts are read from two threads at once in the one database the worker keeps for them:"
      + " no empty database is taken for a layout")
  void layoutsShareADatabase() throws Exception {
    Path home = Files.createDirectories(dir.resolve("worker-1"));
    Path copy = home.resolve("copy.parquet");
    ParquetFixtures.create(copy, "SELECT range AS n, 'x' || range AS s FROM range(10)");
    instances = new DuckInstances(new DuckInstances.Limits("1GB", 2, 2, 0, home));
    instances.open();
    long opened = instances.opened();
    ExecutorService threads = Executors.newFixedThreadPool(2);
    try {
      List<CompletableFuture<Layout>> layouts = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        layouts.add(CompletableFuture.supplyAsync(() -> layout(copy), threads));
      }
      for (CompletableFuture<Layout> layout : layouts) {
        assertThat(layout.get(30, TimeUnit.SECONDS).columns()).containsExactly("n", "s");
      }
    } finally {
      threads.shutdown();
    }
    assertThat(instances.opened()).as("empty databases taken").isEqualTo(opened);
  }

  @Test
  @DisplayName("the layouts' database reads under the worker's own directory alone: a Parquet file elsewhere, even in a"
      + " directory whose name begins with the worker's, is refused, and its configuration is locked")
  void layoutsReadOwnFilesOnly() throws Exception {
    Path home = Files.createDirectories(dir.resolve("worker-1"));
    Path sibling = Files.createDirectories(dir.resolve("worker-10")).resolve("other.parquet");
    ParquetFixtures.create(sibling, "SELECT 1 AS secret");
    instances = new DuckInstances(new DuckInstances.Limits("1GB", 2, 2, 0, home));
    instances.open();
    for (Path outside : List.of(sibling, file)) {
      assertThatThrownBy(() -> instances.layout(outside, Layout.footerAt(outside)))
          .isInstanceOf(SQLException.class).hasMessageContaining("Permission Error");
    }
    Files.copy(sibling, home.resolve("own.parquet"));
    assertThat(layout(home.resolve("own.parquet")).columns()).containsExactly("secret");
  }

  private Layout layout(Path copy) {
    try {
      return instances.layout(copy, Layout.footerAt(copy));
    } catch (SQLException | java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private String text(String name) throws Exception {
    DuckInstances.Instance instance = instances.lease(conversation(file, 1));
    try (Connection c = instance.connect(); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT current_setting('" + name + "')::VARCHAR")) {
      rs.next();
      return rs.getString(1);
    } finally {
      instances.release(instance);
    }
  }

  private long setting(String name) throws Exception {
    return Long.parseLong(text(name));
  }
}
