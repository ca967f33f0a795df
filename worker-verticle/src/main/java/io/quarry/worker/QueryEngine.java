package io.quarry.worker;

import io.quarry.bus.QueryResult;
import io.quarry.bus.RowsJson;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
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

/**
 * Runs one guarded read query on a worker thread: at most {@link QueryResult#MAX_ROWS} rows and
 * {@link QueryResult#MAX_ROWS_CHARS} characters of them are converted, each cell cut at
 * {@link QueryResult#MAX_CELL_CHARS}; the rest is only counted, so {@code total_rows} is exact. {@link #check} and {@link #run} block:
 * never call them on an event loop ({@link #checked} does not).
 */
final class QueryEngine {

  private final DuckInstances instances;
  private final CheckedStatements checked = new CheckedStatements();

  QueryEngine(DuckInstances instances) {
    this.instances = instances;
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

  /** Runs a checked statement over the tables it reads. */
  QueryResult run(Map<String, Placeholders.Bound> bindings, String sql, long timeoutMs, Alarm alarm)
      throws SQLException {
    DuckInstances.Instance instance = instances.lease(bindings);
    try (Connection connection = instance.connect()) {
      return execute(connection, instance, bindings, sql, timeoutMs, alarm);
    } finally {
      instances.release(instance);
    }
  }

  private static QueryResult execute(Connection connection, DuckInstances.Instance instance,
      Map<String, Placeholders.Bound> bindings,
      String sql, long timeoutMs, Alarm alarm) throws SQLException {
    AtomicBoolean timedOut = new AtomicBoolean();
    long started = System.nanoTime();
    try (Statement statement = connection.createStatement()) {
      Runnable disarm = alarm.arm(timeoutMs, () -> {
        timedOut.set(true);
        cancel(statement);
      });
      // DuckDB ignores a cancel that comes before its statement runs: a stop already given is kept here.
      if (timedOut.get()) {
        disarm.run();
        throw QueryFailure.timeout(timeoutMs, "");
      }
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
      } finally {
        disarm.run();
      }
    } catch (SQLException e) {
      if (timedOut.get()) {
        throw QueryFailure.timeout(timeoutMs, "");
      }
      Optional<Placeholders.Missing> missing = Placeholders.fired(e.getMessage(), instance.placeholders);
      if (missing.isPresent()) {
        throw new Placeholders.Unfetched(missing.get());
      }
      throw FriendlyErrors.sql(e.getMessage() == null ? e.toString() : e.getMessage(), bindings.keySet(),
          instance.columns);
    }
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
