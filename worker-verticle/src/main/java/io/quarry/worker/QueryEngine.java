package io.quarry.worker;

import io.quarry.bus.Export;
import io.quarry.bus.Failure;
import io.quarry.bus.PrivateFiles;
import io.quarry.bus.QuarryException;
import io.quarry.bus.QueryRequest;
import io.quarry.bus.QueryResult;
import io.quarry.bus.RowsJson;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one guarded read query on a worker thread: at most {@link QueryResult#MAX_ROWS} rows and
 * {@link QueryResult#MAX_ROWS_CHARS} characters of them are converted, each cell cut at
 * {@link QueryResult#MAX_CELL_CHARS}; the rest is only counted, so {@code total_rows} is exact. {@link #check} and {@link #run} block:
 * never call them on an event loop ({@link #checked} does not).
 */
final class QueryEngine {

  private static final Logger log = LoggerFactory.getLogger(QueryEngine.class);
  /**
   * A failure in resolving names: views of fewer columns show the same names and types, so would fail the same.
   */
  private static final Pattern NAMES = Pattern.compile("^\\s*(Binder|Catalog) Error:");

  private final DuckInstances instances;
  /** The worker's folder: no path under it reaches a message. */
  private final Path home;
  private final CheckedStatements checked = new CheckedStatements();
  private final DirectReads directReads = new DirectReads();

  QueryEngine(DuckInstances instances, Path home) {
    this.instances = instances;
    this.home = home;
  }

  /** Arms an action to run when a query's time limit passes; the returned action disarms it. */
  interface Alarm {
    Runnable arm(long delayMs, Runnable action);
  }

  /** Checks a statement (see {@link SqlGuard}); returns what it reads. */
  Reads check(String sql, Collection<String> tables) throws SQLException {
    Reads known = checked.reads(sql, tables);
    if (known != null) {
      return known;
    }
    Reads read = SqlGuard.check(instances.serializer(), sql, tables);
    checked.accepted(sql, tables, read);
    return read;
  }

  /** What a statement reads if it already passed the check, else null; does not block. */
  Reads checked(String sql, Collection<String> tables) {
    return checked.reads(sql, tables);
  }

  /**
   * Runs a checked statement over the tables it reads: over views of all the columns their copies hold, or, for a
   * statement DuckDB cannot plan that way, over views of only the columns it reads ({@link DirectReads}).
   */
  QueryResult run(Map<String, Placeholders.Bound> bindings, Reads reads, String sql, long timeoutMs, Alarm alarm)
      throws SQLException, IOException {
    return directReads.run(bindings, reads, timeoutMs, false, (bound, leftMs, checkPlan) ->
        runOver(bound, sql, new Limit(timeoutMs, leftMs), alarm, checkPlan));
  }

  private QueryResult runOver(Map<String, Placeholders.Bound> bindings, String sql, Limit limit, Alarm alarm,
      boolean checkPlan) throws SQLException {
    DuckInstances.Instance instance = instances.lease(bindings);
    try (Connection connection = instance.connect()) {
      return execute(connection, instance, bindings, sql, limit, alarm, checkPlan);
    } finally {
      instances.release(instance);
    }
  }

  /** A file that left the cache. */
  void forget(Path file) {
    instances.forget(file);
    directReads.forget(file);
  }

  /** The footer statistics of one bound table ({@link FooterStatistics}), in the database its queries share. */
  QueryResult statistics(Map<String, Placeholders.Bound> bindings, String table, long timeoutMs, Alarm alarm)
      throws SQLException {
    DuckInstances.Instance instance = instances.lease(bindings);
    try (Connection connection = instance.connect()) {
      return guarded(connection, instance, bindings, new Limit(timeoutMs, timeoutMs), alarm, null,
          statement -> FooterStatistics.read(connection, table, bindings.get(table).file()));
    } finally {
      instances.release(instance);
    }
  }

  /**
   * The columns of one bound table ({@link QueryRequest#columnsOf}), read from its copy's footer with no
   * database of the query's: a new file's first look costs no database opened and closed. A file DuckDB cannot open
   * fails as a query reading it would.
   */
  QueryResult columnsOf(Map<String, Placeholders.Bound> bindings, String table) {
    long started = System.nanoTime();
    Placeholders.Bound bound = bindings.get(table);
    JsonArray rows = new JsonArray();
    try {
      instances.columnsOf(bound.file()).forEach(c -> rows.add(new JsonArray().add(c.name()).add(c.type())));
    } catch (SQLException e) {
      String duckdb = e.getMessage() == null ? e.toString() : e.getMessage();
      log.debug("DuckDB: {}", duckdb);
      throw unreadable(table, duckdb, bindings);
    }
    JsonArray names = new JsonArray();
    QueryRequest.COLUMNS_OF_COLUMNS.forEach(name -> names.add(new JsonObject().put("name", name)
        .put("type", "VARCHAR")));
    return new QueryResult(null, null, "", names, RowsJson.of(rows), rows.size(), false,
        (System.nanoTime() - started) / 1_000_000, null, null);
  }

  /** A query's time: {@code timeoutMs} its limit as told, {@code leftMs} what is left of it. */
  private record Limit(long timeoutMs, long leftMs) {
  }

  /** What an export wrote. */
  record Exported(long rows, long bytes) {
  }

  /**
   * Writes a checked statement's whole result to {@code output} with DuckDB's own COPY, in a database of its own that
   * may write that one file; fails, leaving no file, past the export's rows or bytes. That database is the export's
   * alone, so its views read only the columns the statement reads, as DuckDB reads the files directly
   * ({@link DirectReads}).
   */
  Exported export(Map<String, Placeholders.Bound> bindings, Reads reads, String sql, Export export, Path output,
      long timeoutMs, Alarm alarm) throws SQLException, IOException {
    return directReads.run(bindings, reads, timeoutMs, true, (bound, leftMs, checkPlan) ->
        exportOver(bound, sql, export, output, new Limit(timeoutMs, leftMs), alarm));
  }

  private Exported exportOver(Map<String, Placeholders.Bound> bindings, String sql, Export export, Path output,
      Limit limit, Alarm alarm) throws SQLException, IOException {
    DuckInstances.Instance instance = instances.forExport(bindings, output);
    try (Connection connection = instance.connect()) {
      String copy = "COPY (SELECT * FROM (" + statementOf(sql) + ") LIMIT " + (export.maxRows() + 1) + ") TO "
          + DuckInstances.literal(output.toString()) + " " + options(export.format());
      long rows = copy(connection, instance, bindings, copy, limit, alarm);
      long bytes = Files.size(output);
      if (rows > export.maxRows() || bytes > export.maxBytes()) {
        Files.deleteIfExists(output);
        throw new QuarryException(Failure.TOO_LARGE, rows > export.maxRows() ? Export.tooManyRows(export.maxRows())
            : Export.tooManyBytes(export.maxBytes()));
      }
      // DuckDB created it with the umask's mode; in this worker's 0700 directory nobody else could reach it meanwhile.
      PrivateFiles.file(output);
      return new Exported(rows, bytes);
    } catch (SQLException | RuntimeException e) {
      Files.deleteIfExists(output);
      throw e;
    } finally {
      instances.release(instance);
    }
  }

  /** The statement without what may end it (a semicolon, blanks), to stand as a subquery. */
  private static String statementOf(String sql) {
    String s = sql.strip();
    while (s.endsWith(";")) {
      s = s.substring(0, s.length() - 1).strip();
    }
    return s;
  }

  private static String options(String format) {
    return switch (format) {
      case "csv" -> "(FORMAT CSV, HEADER true)";
      case "parquet" -> "(FORMAT PARQUET)";
      case "json" -> "(FORMAT JSON, ARRAY true)";
      default -> throw QuarryException.badRequest("Unknown export format '" + format + "'");
    };
  }

  private QueryResult execute(Connection connection, DuckInstances.Instance instance,
      Map<String, Placeholders.Bound> bindings, String sql, Limit limit, Alarm alarm, boolean checkPlan)
      throws SQLException {
    long started = System.nanoTime();
    return guarded(connection, instance, bindings, limit, alarm, checkPlan ? sql : null, statement -> {
      try (ResultSet rs = statement.executeQuery(sql)) {
        JsonArray columns = columns(rs.getMetaData());
        RowsJson.Writer rows = RowsJson.writer();
        long total = 0;
        int kept = 0;
        boolean full = false;
        while (rs.next()) {
          full = full || kept == QueryResult.MAX_ROWS || rows.length() >= QueryResult.MAX_ROWS_CHARS;
          if (!full) {
            rows.add(row(rs, columns.size()));
            kept++;
          }
          total++;
        }
        long elapsedMs = (System.nanoTime() - started) / 1_000_000;
        return new QueryResult(null, null, sql, columns, rows.done(), total, total > kept, elapsedMs, null, null);
      }
    });
  }

  /** The rows a COPY wrote, which DuckDB gives as its update count. */
  private long copy(Connection connection, DuckInstances.Instance instance,
      Map<String, Placeholders.Bound> bindings, String copy, Limit limit, Alarm alarm) throws SQLException {
    return guarded(connection, instance, bindings, limit, alarm, null, statement -> {
      if (statement.execute(copy)) {
        try (ResultSet rs = statement.getResultSet()) {
          return rs.next() ? rs.getLong(1) : 0L;
        }
      }
      return statement.getLargeUpdateCount();
    });
  }

  private interface Work<T> {
    T on(Statement statement) throws SQLException;
  }

  /**
   * Runs {@code work} on a statement the alarm cancels, turning DuckDB's errors into the user's; a failure of
   * {@code plannable} (when not null) that DuckDB meets in planning it is thrown as {@link DirectReads.Unplanned}.
   */
  private <T> T guarded(Connection connection, DuckInstances.Instance instance,
      Map<String, Placeholders.Bound> bindings, Limit limit, Alarm alarm, String plannable, Work<T> work)
      throws SQLException {
    long timeoutMs = limit.timeoutMs();
    AtomicBoolean timedOut = new AtomicBoolean();
    try (Statement statement = connection.createStatement()) {
      Runnable disarm = alarm.arm(limit.leftMs(), () -> {
        timedOut.set(true);
        cancel(statement);
      });
      // DuckDB ignores a cancel that comes before its statement runs: a stop already given is kept here.
      if (timedOut.get()) {
        disarm.run();
        throw QueryFailure.timeout(timeoutMs, "");
      }
      try {
        return work.on(statement);
      } finally {
        disarm.run();
      }
    } catch (SQLException e) {
      if (timedOut.get()) {
        throw QueryFailure.timeout(timeoutMs, "");
      }
      String duckdb = e.getMessage() == null ? e.toString() : e.getMessage();
      RuntimeException failure = failure(duckdb, instance, bindings);
      if (plannable != null && !(failure instanceof Placeholders.Unfetched) && !NAMES.matcher(duckdb).find()
          && !plans(connection, plannable)) {
        throw new DirectReads.Unplanned(failure);
      }
      throw failure;
    }
  }

  /**
   * Whether DuckDB plans the statement (binds and optimizes it, running nothing: its EXPLAIN; preparing it does not
   * optimize). A statement that failed and cannot be planned failed on what its views project, and views of fewer
   * columns may plan it; one that plans failed as it ran, reading only the columns it uses, which fewer would not change.
   */
  private static boolean plans(Connection connection, String sql) {
    try (Statement explain = connection.createStatement()) {
      explain.execute("EXPLAIN " + sql);
      return true;
    } catch (SQLException e) {
      return false;
    }
  }

  /** What a statement's failure tells its caller: never DuckDB's stack or a local path (those go to the log). */
  private RuntimeException failure(String duckdb, DuckInstances.Instance instance,
      Map<String, Placeholders.Bound> bindings) {
    Optional<Placeholders.Missing> missing = Placeholders.fired(duckdb, instance.placeholders);
    if (missing.isPresent()) {
      return new Placeholders.Unfetched(missing.get());
    }
    log.debug("DuckDB: {}", duckdb);
    String text = EngineText.clean(duckdb, bindings, home);
    if (EngineText.internal(duckdb)) {
      instances.discard(instance);
      return QueryFailure.engineBug(text);
    }
    Optional<String> unreadable = FriendlyErrors.missingTable(duckdb).filter(instance.unreadable::containsKey);
    if (unreadable.isPresent()) {
      return unreadable(unreadable.get(), instance.unreadable.get(unreadable.get()), bindings);
    }
    return FriendlyErrors.sql(text, bindings.keySet(), instance.columns());
  }

  /** A table whose file DuckDB could not open, in the user's words: its name and URL, DuckDB's reason without paths. */
  private RuntimeException unreadable(String table, String duckdb, Map<String, Placeholders.Bound> bindings) {
    return QueryFailure.unreadable(EngineText.named(table, bindings.get(table).url()),
        EngineText.reason(duckdb, bindings, home));
  }

  private static JsonArray columns(ResultSetMetaData meta) throws SQLException {
    JsonArray columns = new JsonArray();
    for (int i = 1; i <= meta.getColumnCount(); i++) {
      columns.add(new JsonObject().put("name", meta.getColumnLabel(i)).put("type", meta.getColumnTypeName(i)));
    }
    return columns;
  }

  private static List<Object> row(ResultSet rs, int width) throws SQLException {
    List<Object> row = new ArrayList<>(width);
    for (int i = 1; i <= width; i++) {
      row.add(capped(JsonValues.of(rs.getObject(i))));
    }
    return row;
  }

  /** One oversized value must not weigh a whole result: past the cell limit its text is cut and marked. */
  private static Object capped(Object value) {
    if (value instanceof String text) {
      return text.length() > QueryResult.MAX_CELL_CHARS ? QueryResult.cut(text) : text;
    }
    if (value instanceof JsonArray || value instanceof JsonObject) {
      String text = value.toString();
      return text.length() > QueryResult.MAX_CELL_CHARS ? QueryResult.cut(text) : value;
    }
    return value;
  }

  private static void cancel(Statement statement) {
    try {
      statement.cancel();
    } catch (SQLException ignored) {
      // The statement already finished: nothing left to cancel.
    }
  }
}
