package io.quarry.worker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;
import org.duckdb.DuckDBConnection;

/**
 * In-memory DuckDB databases, one per set of table bindings (name → cached file), each locked down at
 * creation: external access off except the exact bound files, configuration locked, memory and thread
 * limits, its own spill directory. Kept in an LRU because creating one costs ~15 ms while a warm
 * trivial query costs a fraction of a millisecond. Besides them, one table-less database parses
 * statements for {@link SqlGuard}, with a prepared statement per worker thread. Used from worker
 * threads, hence synchronized.
 */
final class DuckInstances implements AutoCloseable {

  record Limits(String memoryLimit, int threads, int maxInstances, Path spillDir) {
  }

  /** One database; {@code columns} per table feed friendly error messages. */
  static final class Instance {
    final String key;
    final DuckDBConnection base;
    final Map<String, List<String>> columns;
    final Collection<Path> files;
    private int leases;
    private boolean retired;

    private Instance(String key, DuckDBConnection base, Map<String, List<String>> columns, Collection<Path> files) {
      this.key = key;
      this.base = base;
      this.columns = columns;
      this.files = files;
    }

    /** A connection of its own for one query: DuckDB connections are not shared between threads. */
    Connection connect() throws SQLException {
      return base.duplicate();
    }
  }

  private final Limits limits;
  private final LinkedHashMap<String, Instance> instances = new LinkedHashMap<>(16, 0.75f, true);
  private int created;
  private Instance parser;
  /** One prepared parsing statement per worker thread (the pool's threads live as long as this worker). */
  private final ThreadLocal<PreparedStatement> parsing = new ThreadLocal<>();
  private final List<Connection> parsers = new ArrayList<>();

  DuckInstances(Limits limits) {
    this.limits = limits;
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
    parsers.add(connection);
    return connection;
  }

  /** An instance for these bindings, leased until {@link #release}. */
  synchronized Instance lease(Map<String, Path> bindings) throws SQLException {
    String key = bindings.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
        .sorted().collect(Collectors.joining("\n"));
    Instance instance = instances.get(key);
    if (instance == null) {
      instance = create(key, bindings);
      instances.put(key, instance);
      evictBeyondLimit();
    }
    instance.leases++;
    return instance;
  }

  synchronized void release(Instance instance) {
    instance.leases--;
    if (instance.retired && instance.leases == 0) {
      closeQuietly(instance);
    }
  }

  /** Retires every instance that reads this file (it was replaced or evicted from the cache). */
  synchronized void forget(Path file) {
    for (Iterator<Instance> it = instances.values().iterator(); it.hasNext(); ) {
      Instance instance = it.next();
      if (instance.files.contains(file)) {
        it.remove();
        retire(instance);
      }
    }
  }

  private void evictBeyondLimit() {
    for (Iterator<Instance> it = instances.values().iterator(); it.hasNext() && instances.size() > limits.maxInstances(); ) {
      Instance eldest = it.next();
      it.remove();
      retire(eldest);
    }
  }

  private void retire(Instance instance) {
    instance.retired = true;
    if (instance.leases == 0) {
      closeQuietly(instance);
    }
  }

  private Instance create(String key, Map<String, Path> bindings) throws SQLException {
    Path spill = limits.spillDir().resolve("db-" + (++created));
    try {
      Files.createDirectories(spill);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Properties properties = new Properties();
    properties.setProperty("autoload_known_extensions", "false");
    properties.setProperty("autoinstall_known_extensions", "false");
    DuckDBConnection base = (DuckDBConnection) DriverManager.getConnection("jdbc:duckdb:", properties);
    try (Statement s = base.createStatement()) {
      s.execute("SET memory_limit = '" + limits.memoryLimit().replace("'", "") + "'");
      s.execute("SET threads = " + limits.threads());
      s.execute("SET temp_directory = " + literal(spill.toString()));
      s.execute("SET allowed_paths = [" + bindings.values().stream().map(p -> literal(p.toString()))
          .collect(Collectors.joining(", ")) + "]");
      s.execute("SET enable_external_access = false");
      for (Map.Entry<String, Path> table : bindings.entrySet()) {
        s.execute("CREATE VIEW " + identifier(table.getKey()) + " AS SELECT * FROM read_parquet("
            + literal(table.getValue().toString()) + ")");
      }
      s.execute("SET lock_configuration = true");
      return new Instance(key, base, columns(s, bindings.keySet()), List.copyOf(bindings.values()));
    } catch (SQLException | RuntimeException e) {
      base.close();
      throw e;
    }
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

  @Override
  public synchronized void close() {
    instances.values().forEach(this::retire);
    instances.clear();
    for (Connection connection : parsers) {
      try {
        connection.close();
      } catch (SQLException ignored) {
        // Closing a connection to an in-memory database cannot lose anything.
      }
    }
    if (parser != null) {
      closeQuietly(parser);
    }
  }
}
