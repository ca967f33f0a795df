package io.quarry.worker;

import io.quarry.bus.DataFormat;
import io.quarry.bus.PrivateFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.duckdb.DuckDBConnection;

/**
 * In-memory DuckDB databases, one per set of table bindings (name → cached file), each locked down at
 * creation: external access off except the exact bound files, configuration locked, memory and thread
 * limits, its own spill directory. Kept in an LRU because creating one costs ~30 ms of CPU while a warm
 * trivial query costs a fraction of a millisecond; the LRU holds as many as the memory set aside for them
 * allows (see {@link WorkerSettings}), so the conversations a node serves at once keep theirs. Besides them,
 * one table-less database parses statements for {@link SqlGuard}, with a prepared statement per worker
 * thread, and one reads new copies' layouts, with a connection per worker thread. Used from worker threads: the
 * maps are guarded by this object's lock, which is never held while a database is created or closed.
 */
final class DuckInstances implements AutoCloseable {

  /**
   * @param threads    DuckDB's threads per database (per query)
   * @param queries    queries run at once, each on a database of its own
   * @param keep       databases kept idle; 0 to size them from memory (see {@link DatabaseBudget})
   * @param home       the worker's own directory: its copies, its warm-up file and (under {@code spill}) what
   *                   databases spill
   */
  record Limits(String memoryLimit, int threads, int queries, int keep, Path home) {

    Path spillDir() {
      return home.resolve("spill");
    }
  }

  /**
   * One database; {@code columns} per table feed friendly error messages, {@code placeholders} tell which column
   * a query needed that a table's copy does not hold, {@code unreadable} which tables DuckDB could not open, and why.
   */
  static final class Instance {
    final String key;
    final DuckDBConnection base;
    private final Map<String, Placeholders.Bound> bindings;
    /** Read on the first failure that needs them: listing them costs a new database more than its first query. */
    private Map<String, List<String>> columns;
    final Collection<Path> files;
    final List<Placeholders.Missing> placeholders;
    final Map<String, String> unreadable;
    private int leases;
    private boolean retired;

    private Instance(String key, DuckDBConnection base, Map<String, Placeholders.Bound> bindings,
        Placeholders.Views views) {
      this.key = key;
      this.base = base;
      this.bindings = Collections.unmodifiableMap(new LinkedHashMap<>(bindings));
      this.files = files(bindings);
      this.placeholders = views.placeholders();
      this.unreadable = views.unreadable();
    }

    /** A connection of its own for one query: DuckDB connections are not shared between threads. */
    Connection connect() throws SQLException {
      return base.duplicate();
    }

    /** Each table's columns, for a message that names them; empty when DuckDB cannot list them. */
    synchronized Map<String, List<String>> columns() {
      if (columns == null) {
        try (Connection connection = connect(); Statement s = connection.createStatement()) {
          columns = DuckInstances.columns(s, bindings.keySet());
        } catch (SQLException e) {
          return Map.of();
        }
      }
      return columns;
    }

    /** Whether this database reads the same files under the same names: it can be remade for those bindings. */
    boolean sameFiles(Map<String, Placeholders.Bound> other) {
      return other.size() == bindings.size() && other.entrySet().stream().allMatch(e ->
          bindings.containsKey(e.getKey()) && bindings.get(e.getKey()).file().equals(e.getValue().file()));
    }
  }

  /** One instance being created; {@code stale} once a file it reads left the cache meanwhile. */
  private static final class Creation {
    final CompletableFuture<Instance> done = new CompletableFuture<>();
    final Collection<Path> files;
    boolean stale;

    Creation(Collection<Path> files) {
      this.files = files;
    }
  }

  private final Limits limits;
  private int keep = DatabaseBudget.MIN;
  private long idleBytes;
  private final LinkedHashMap<String, Instance> instances = new LinkedHashMap<>(16, 0.75f, true);
  /** Instances being created, by key: whoever else wants one waits for it. */
  private final Map<String, Creation> creating = new HashMap<>();
  private int created;
  private int remade;
  private Instance parser;
  /** One prepared parsing statement per worker thread (the pool's threads live as long as this worker). */
  private final ThreadLocal<PreparedStatement> parsing = new ThreadLocal<>();
  private DuckDBConnection layouts;
  /** One connection to {@link #layouts} per worker thread. */
  private final ThreadLocal<Connection> layoutReading = new ThreadLocal<>();
  /** The connections per thread, the parsing and the layouts' ones: closed with this. */
  private final List<Connection> perThread = new ArrayList<>();
  private final SpareDatabases spares;

  DuckInstances(Limits limits) {
    this.limits = limits;
    this.spares = new SpareDatabases(limits.threads());
  }

  /**
   * Loads DuckDB and makes the parsing database, then sizes the LRU (blocks): measured now, the address space
   * in use includes DuckDB's library. Returns how many databases it keeps.
   */
  synchronized int open() throws SQLException {
    if (parser == null) {
      parser = create("", Map.of());
    }
    if (layouts == null) {
      layouts = layoutDatabase(limits.home());
    }
    idleBytes = DatabaseBudget.idleDatabaseBytes(limits.threads(), ProcessMemory.stackLimit());
    // The spares are idle databases too.
    keep = limits.keep() > 0 ? limits.keep() : Math.max(DatabaseBudget.MIN, DatabaseBudget.databases(
        limits.memoryLimit(), limits.queries(), idleBytes, ProcessMemory.addressSpaceCap(),
        ProcessMemory.addressSpaceUsed()) - SpareDatabases.COUNT);
    spares.fill();
    return keep;
  }

  /** The address space one idle database maps (see {@link DatabaseBudget}). */
  synchronized long idleBytes() {
    return idleBytes;
  }

  /**
   * A statement for {@link SqlGuard}, on a database with no tables at all: statements are checked
   * before anything is fetched or bound (parsing reads nothing, and this database could not either).
   */
  PreparedStatement serializer() throws SQLException {
    PreparedStatement mine = parsing.get();
    if (mine == null) {
      mine = newParser().prepareStatement(SqlGuard.SERIALIZE);
      parsing.set(mine);
    }
    return mine;
  }

  private synchronized Connection newParser() throws SQLException {
    if (parser == null) {
      parser = create("", Map.of());
    }
    Connection connection = parser.connect();
    perThread.add(connection);
    return connection;
  }

  /**
   * The database that reads new copies' layouts. It runs Quarry's own statements only, over files the worker wrote, so
   * one serves them all: it may read under the worker's own directory and nowhere else, and its configuration is locked.
   * A database of its own per layout cost each new copy an open and a close (about 25 ms of CPU).
   */
  private static DuckDBConnection layoutDatabase(Path home) throws SQLException {
    DuckDBConnection database = newDatabase(1);
    try (Statement s = database.createStatement()) {
      s.execute("SET allowed_directories = [" + literal(home.toAbsolutePath() + java.io.File.separator) + "];"
          + " SET enable_external_access = false; SET lock_configuration = true");
      return database;
    } catch (SQLException e) {
      database.close();
      throw e;
    }
  }

  private Connection layoutReader() throws SQLException {
    Connection mine = layoutReading.get();
    if (mine == null) {
      mine = newLayoutReader();
      layoutReading.set(mine);
    }
    return mine;
  }

  private synchronized Connection newLayoutReader() throws SQLException {
    if (layouts == null) {
      layouts = layoutDatabase(limits.home());
    }
    Connection connection = layouts.duplicate();
    perThread.add(connection);
    return connection;
  }

  /**
   * An instance for these bindings, leased until {@link #release}. A missing one is made outside the lock
   * (it takes milliseconds), so queries over other bindings are not held up by it; queries that want the
   * same missing one wait for its one making instead of making their own. When a sparse copy gained columns, the
   * database over the same files that nobody uses is remade (its views replaced) rather than a new one created.
   */
  Instance lease(Map<String, Placeholders.Bound> bindings) throws SQLException {
    String key = bindings.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue().key())
        .sorted().collect(Collectors.joining("\n"));
    while (true) {
      Creation pending;
      Instance outgrown = null;
      synchronized (this) {
        Instance found = instances.get(key);
        if (found != null) {
          found.leases++;
          return found;
        }
        pending = creating.get(key);
        if (pending == null) {
          creating.put(key, new Creation(files(bindings)));
          outgrown = takeIdleOverSameFiles(bindings);
        }
      }
      if (pending == null) {
        return createAndKeep(key, bindings, outgrown);
      }
      pending.done.handle((instance, failure) -> null).join(); // then look again: it may already be gone
    }
  }

  /** A kept database over the same files that no query uses, taken out of the LRU to be remade; or null. */
  private Instance takeIdleOverSameFiles(Map<String, Placeholders.Bound> bindings) {
    for (Iterator<Instance> it = instances.values().iterator(); it.hasNext(); ) {
      Instance instance = it.next();
      if (instance.leases == 0 && instance.sameFiles(bindings)) {
        it.remove();
        return instance;
      }
    }
    return null;
  }

  /**
   * The database of {@code outgrown}, its views made anew for {@code bindings} (the same files, other columns held):
   * its limits and locks stay as they were set, for the same files. If that fails, a new database is made instead.
   */
  private Instance remake(Instance outgrown, String key, Map<String, Placeholders.Bound> bindings)
      throws SQLException {
    try {
      try (Statement s = outgrown.base.createStatement()) {
        for (String table : bindings.keySet()) {
          s.execute("DROP VIEW IF EXISTS " + identifier(table));
        }
      }
      Instance instance = new Instance(key, outgrown.base, bindings, Placeholders.createViews(outgrown.base, bindings));
      countRemade();
      return instance;
    } catch (SQLException | RuntimeException e) {
      closeQuietly(outgrown);
      return create(key, bindings);
    }
  }

  private synchronized void countRemade() {
    remade++;
  }

  private static List<Path> files(Map<String, Placeholders.Bound> bindings) {
    return bindings.values().stream().map(Placeholders.Bound::file).toList();
  }

  private Instance createAndKeep(String key, Map<String, Placeholders.Bound> bindings, Instance outgrown)
      throws SQLException {
    Instance instance;
    try {
      instance = outgrown == null ? create(key, bindings) : remake(outgrown, key, bindings);
    } catch (SQLException | RuntimeException e) {
      finished(key).done.completeExceptionally(e);
      throw e;
    }
    List<Instance> closing;
    Creation pending;
    synchronized (this) {
      pending = finished(key);
      instance.leases++;
      if (pending.stale) {
        instance.retired = true; // a file it reads left the cache while it was being made: used once, not kept
        closing = List.of();
      } else {
        instances.put(key, instance);
        closing = evictBeyondLimit();
      }
    }
    pending.done.complete(instance);
    closing.forEach(DuckInstances::closeQuietly);
    return instance;
  }

  private synchronized int nextNumber() {
    return ++created;
  }

  private synchronized Creation finished(String key) {
    return creating.remove(key);
  }

  void release(Instance instance) {
    boolean close;
    synchronized (this) {
      instance.leases--;
      close = instance.retired && instance.leases == 0;
    }
    if (close) {
      closeQuietly(instance);
    }
  }

  /**
   * Retires an instance whose database failed inside DuckDB (an INTERNAL error may leave it unusable): the next
   * query over the same tables gets a new one.
   */
  void discard(Instance instance) {
    boolean close;
    synchronized (this) {
      instances.remove(instance.key, instance);
      instance.retired = true;
      close = instance.leases == 0;
    }
    if (close) {
      closeQuietly(instance);
    }
  }

  /** Retires every instance that reads this file (it was replaced or evicted from the cache). */
  void forget(Path file) {
    List<Instance> closing = new ArrayList<>();
    synchronized (this) {
      for (Iterator<Instance> it = instances.values().iterator(); it.hasNext(); ) {
        Instance instance = it.next();
        if (instance.files.contains(file)) {
          it.remove();
          retire(instance, closing);
        }
      }
      creating.values().stream().filter(c -> c.files.contains(file)).forEach(c -> c.stale = true);
    }
    closing.forEach(DuckInstances::closeQuietly);
  }

  /** The least recently used instances past the limit, retired; those nobody uses are returned for closing. */
  private List<Instance> evictBeyondLimit() {
    List<Instance> closing = new ArrayList<>();
    for (Iterator<Instance> it = instances.values().iterator(); it.hasNext() && instances.size() > keep; ) {
      Instance eldest = it.next();
      it.remove();
      retire(eldest, closing);
    }
    return closing;
  }

  private static void retire(Instance instance, List<Instance> closing) {
    instance.retired = true;
    if (instance.leases == 0) {
      closing.add(instance);
    }
  }

  /** How many databases are kept now. */
  synchronized int kept() {
    return instances.size();
  }

  /** How many databases were made so far, the parsing one included. */
  synchronized int created() {
    return created;
  }

  /** How many empty databases were opened for a use so far (each query's database, each export's, each conversion's). */
  long opened() {
    return spares.taken();
  }

  /** How many databases were remade for a sparse copy that gained columns. */
  synchronized int remade() {
    return remade;
  }

  /**
   * A database of its own for one export, never kept: like the others, but it may also write the one file the export
   * goes to. Closed when released.
   */
  Instance forExport(Map<String, Placeholders.Bound> bindings, Path output) throws SQLException {
    Instance instance = create("export-" + nextNumber(), bindings, List.of(output));
    synchronized (this) {
      instance.leases++;
      instance.retired = true;
    }
    return instance;
  }

  private Instance create(String key, Map<String, Placeholders.Bound> bindings) throws SQLException {
    return create(key, bindings, List.of());
  }

  private Instance create(String key, Map<String, Placeholders.Bound> bindings, List<Path> writable)
      throws SQLException {
    Path spill = limits.spillDir().resolve("db-" + nextNumber());
    try {
      PrivateFiles.directory(spill);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    DuckDBConnection base = spares.take();
    try {
      try (Statement s = base.createStatement()) {
        // One round through the driver: four took 1.3 ms, and 2-6 ms beside a busy worker's other threads. Every query
        // binds its views anew, and with it reads each file's footer again (0.3 ms of a 0.9 ms count(*) over a 3 M-row
        // file): kept, the footer is read once per database, again only when the file's modification time moves.
        s.execute("SET memory_limit = '" + limits.memoryLimit().replace("'", "") + "';"
            + " SET temp_directory = " + literal(spill.toString()) + ";"
            + " SET parquet_metadata_cache = true;"
            + " SET allowed_paths = [" + java.util.stream.Stream.concat(files(bindings).stream(), writable.stream())
            .map(p -> literal(p.toString())).collect(Collectors.joining(", ")) + "];"
            + " SET enable_external_access = false");
      }
      Placeholders.Views views = Placeholders.createViews(base, bindings);
      try (Statement s = base.createStatement()) {
        s.execute("SET lock_configuration = true");
      }
      return new Instance(key, base, bindings, views);
    } catch (SQLException | RuntimeException e) {
      base.close();
      throw e;
    }
  }

  /**
   * An empty in-memory database that loads no extension; the caller limits and locks it. DuckDB starts 8 threads per
   * database for asynchronous I/O, which reading local files does not use: with them an idle database maps 77 MB of
   * address space instead of 12 MB (6 MB with 2 MB thread stacks). Its query threads are set as it starts: set later,
   * it would first start one per core and then stop them again.
   */
  static DuckDBConnection newDatabase(int threads) throws SQLException {
    Properties properties = new Properties();
    properties.setProperty("threads", String.valueOf(threads));
    properties.setProperty("autoload_known_extensions", "false");
    properties.setProperty("autoinstall_known_extensions", "false");
    properties.setProperty("async_threads", "0");
    return (DuckDBConnection) DriverManager.getConnection("jdbc:duckdb:", properties);
  }

  private static Map<String, List<String>> columns(Statement s, Collection<String> tables) throws SQLException {
    Map<String, List<String>> columns = new LinkedHashMap<>();
    tables.forEach(t -> columns.put(t, new ArrayList<>()));
    try (ResultSet rs = s.executeQuery("SELECT table_name, column_name FROM duckdb_columns() ORDER BY table_name,"
        + " column_index")) {
      while (rs.next()) {
        List<String> list = columns.get(rs.getString(1));
        if (list != null) {
          list.add(rs.getString(2));
        }
      }
    }
    return columns;
  }

  static String literal(String text) {
    return "'" + text.replace("'", "''") + "'";
  }

  static String identifier(String name) {
    return "\"" + name.replace("\"", "\"\"") + "\"";
  }

  private static void closeQuietly(Instance instance) {
    try {
      instance.base.close();
    } catch (SQLException ignored) {
      // Closing an in-memory database cannot lose anything.
    }
  }

  /** Where a new copy keeps each column, read from its footer on a database of its own (blocks). */
  /**
   * Reads a downloaded CSV or JSON file into a Parquet file (see {@link TextCopies}) in a database that may read that
   * one file and write the other, within a query's memory and with its own spill directory, then is closed.
   */
  void convert(Path source, DataFormat format, Path target) throws SQLException, IOException {
    Path spill = limits.spillDir().resolve("db-" + nextNumber());
    PrivateFiles.directory(spill);
    DuckDBConnection database = spares.take();
    try (Statement s = database.createStatement()) {
      s.execute("SET memory_limit = '" + limits.memoryLimit().replace("'", "") + "';"
          + " SET temp_directory = " + literal(spill.toString()) + ";"
          + " SET allowed_paths = [" + literal(source.toString()) + ", " + literal(target.toString()) + "];"
          + " SET enable_external_access = false; SET lock_configuration = true");
      s.execute("COPY (SELECT * FROM " + TextReaders.reader(source, format) + ") TO " + literal(target.toString())
          + " (FORMAT PARQUET)");
      PrivateFiles.file(target);
    } finally {
      spares.retire(database);
      deleteEmpty(spill);
    }
  }

  /** DuckDB removes its spill files as it closes; a directory it still holds files in stays for the next start. */
  private static void deleteEmpty(Path dir) {
    try {
      java.nio.file.Files.deleteIfExists(dir);
    } catch (IOException ignored) {
      // Not empty yet: the worker's spill directory is cleared when it starts.
    }
  }

  /** A new copy's layout, read from its footer (blocks); the copy lies under the worker's own directory. */
  Layout layout(Path file, long footerAt) throws SQLException, IOException {
    return Layout.read(layoutReader(), file, footerAt);
  }

  /** A copy's columns, read from its footer in the layouts' database (blocks); the copy lies under the worker's own directory. */
  List<Layout.Column> columnsOf(Path file) throws SQLException {
    return Layout.columns(layoutReader(), file);
  }

  @Override
  public synchronized void close() {
    spares.close();
    List<Instance> closing = new ArrayList<>();
    instances.values().forEach(instance -> retire(instance, closing));
    instances.clear();
    closing.forEach(DuckInstances::closeQuietly);
    for (Connection connection : perThread) {
      try {
        connection.close();
      } catch (SQLException ignored) {
        // Closing a connection to an in-memory database cannot lose anything.
      }
    }
    if (parser != null) {
      closeQuietly(parser);
    }
    if (layouts != null) {
      try {
        layouts.close();
      } catch (SQLException ignored) {
        // As above.
      }
    }
  }
}
