package io.quarry.storage;

import io.quarry.bus.QuarryException;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;

/** Thin helpers over the pool: parameterised statements, single-row look-ups, transactions. */
final class Db {

  /** How often a transaction that lost a race with another runs again before its failure is the answer. */
  private static final int ATTEMPTS = 5;

  private final Pool pool;
  private final Dialect dialect;

  Db(Pool pool, Dialect dialect) {
    this.pool = pool;
    this.dialect = dialect;
  }

  Dialect dialect() {
    return dialect;
  }

  Pool pool() {
    return pool;
  }

  Future<RowSet<Row>> run(String sql, Object... params) {
    return run(pool, sql, params);
  }

  Future<RowSet<Row>> run(SqlClient client, String sql, Object... params) {
    return client.preparedQuery(dialect.sql(sql)).execute(Tuple.from(Arrays.asList(params)));
  }

  /** The first row, or NOT_FOUND with {@code notFound} as message. */
  Future<Row> one(String notFound, String sql, Object... params) {
    return one(pool, notFound, sql, params);
  }

  Future<Row> one(SqlClient client, String notFound, String sql, Object... params) {
    return run(client, sql, params).map(rows -> {
      var it = rows.iterator();
      if (!it.hasNext()) {
        throw QuarryException.notFound(notFound);
      }
      return it.next();
    });
  }

  Future<Boolean> exists(SqlClient client, String sql, Object... params) {
    return run(client, sql, params).map(rows -> rows.iterator().hasNext());
  }

  /** Fails with NOT_FOUND unless the statement changed at least one row. */
  static Future<Void> changed(Future<RowSet<Row>> update, String notFound) {
    return update.map(rows -> {
      if (rows.rowCount() == 0) {
        throw QuarryException.notFound(notFound);
      }
      return null;
    });
  }

  /**
   * Runs {@code work} in one transaction: on SQLite begun IMMEDIATE, so that read-then-write transactions queue
   * for the write lock instead of deadlocking on lock upgrade; on PostgreSQL read committed, run again (up to
   * {@value #ATTEMPTS} times) when it lost a race with another.
   *
   * <p>Not {@code Pool.withTransaction}: vertx-jdbc-client 5.0.10 leaves the JDBC connection with
   * auto-commit off after commit or rollback, so later statements on that pooled connection were
   * never committed. Plain BEGIN/COMMIT statements keep the driver in auto-commit throughout.
   */
  <T> Future<T> tx(Function<SqlConnection, Future<T>> work) {
    return tx(dialect.begin, work, 1);
  }

  /** A transaction begun with {@code begin} (see {@link Dialect#beginMigration}). */
  <T> Future<T> tx(String begin, Function<SqlConnection, Future<T>> work) {
    return tx(begin, work, 1);
  }

  private <T> Future<T> tx(String begin, Function<SqlConnection, Future<T>> work, int attempt) {
    return pool.withConnection(conn -> conn.query(begin).execute()
        .compose(begun -> work.apply(conn))
        .compose(
            result -> conn.query("COMMIT").execute().map(result),
            failure -> conn.query("ROLLBACK").execute().transform(rolledBack -> Future.<T>failedFuture(failure))))
        .recover(e -> attempt < ATTEMPTS && dialect.retryable(e) ? tx(begin, work, attempt + 1)
            : Future.failedFuture(e));
  }

  Future<Void> close() {
    return pool.close();
  }

  /** Each row as {@code read} makes it, in order. */
  static <T> List<T> each(RowSet<Row> rows, Function<Row, T> read) {
    List<T> items = new ArrayList<>(rows.size());
    rows.forEach(row -> items.add(read.apply(row)));
    return items;
  }

  static String newId() {
    return UUID.randomUUID().toString();
  }

  /** The id a caller chose for what it creates (so that a second delivery finds it made), or a new one. */
  static String idOr(String given) {
    return given != null && given.matches("[0-9a-fA-F-]{36}") ? given : newId();
  }

  static JsonArray array(Row row, String column) {
    String text = row.getString(column);
    return text == null ? new JsonArray() : new JsonArray(text);
  }

  static String text(JsonArray array) {
    return (array == null ? new JsonArray() : array).encode();
  }

}
