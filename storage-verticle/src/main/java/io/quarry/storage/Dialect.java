package io.quarry.storage;

import io.vertx.core.Future;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.SqlConnection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What differs between the two databases storage runs on. The stores write one SQL, with {@code ?} parameters,
 * that both understand; PostgreSQL gets them numbered ({@code $1}, {@code $2}, …).
 */
enum Dialect {

  /** One file, one writer: transactions begin IMMEDIATE; the schema version is {@code PRAGMA user_version}. */
  SQLITE("BEGIN IMMEDIATE", "BEGIN IMMEDIATE", List.of(Migration.of("db/sqlite/V1__schema.sql"),
      Migration.of("db/sqlite/V2__notice.sql"), Migration.of("db/sqlite/V3__result_note.sql"),
      Migration.of("db/sqlite/V4__usage_request.sql"), Migration.of("db/sqlite/V5__result_runs.sql"),
      Migration.of("db/sqlite/V6__answer_numbers_and_sources.sql"),
      Migration.of("db/sqlite/V7__invite_hashes.sql", InviteCodes::hashStored),
      Migration.of("db/sqlite/V8__api_tokens.sql"), Migration.of("db/sqlite/V9__usage_estimated.sql"),
      Migration.of("db/sqlite/V10__search_folded.sql", SearchText::foldStored),
      Migration.of("db/sqlite/V11__token_scopes.sql"),
      Migration.of("db/sqlite/V12__token_names_expiry.sql"),
      Migration.of("db/sqlite/V13__dataset_format.sql"),
      Migration.of("db/sqlite/V14__shares.sql"),
      Migration.of("db/sqlite/V15__boards.sql"),
      Migration.of("db/sqlite/V16__schedules.sql"))),

  /**
   * Read-committed transactions that lock the row a check and its write depend on (the conversation, the account,
   * the invite: {@code SELECT … FOR UPDATE}), so that they hold together whoever else writes. Serializable
   * transactions would too, but under load their predicate locks cover whole tables (a small table is scanned, not
   * read by index) and most of 20 conversations' writes failed five times over. The schema version is a table, and
   * migrations hold an advisory lock so that of several storage nodes starting at once exactly one migrates.
   */
  POSTGRES("BEGIN", "BEGIN", List.of(Migration.of("db/postgres/V1__schema.sql"),
      Migration.of("db/postgres/V2__usage_request.sql"), Migration.of("db/postgres/V3__result_runs.sql"),
      Migration.of("db/postgres/V4__answer_numbers_and_sources.sql"),
      Migration.of("db/postgres/V5__result_runs_order.sql"),
      Migration.of("db/postgres/V6__invite_hashes.sql", InviteCodes::hashStored),
      Migration.of("db/postgres/V7__api_tokens.sql"),
      Migration.of("db/postgres/V8__usage_estimated.sql"),
      Migration.of("db/postgres/V9__search_folded.sql", SearchText::foldStored),
      Migration.of("db/postgres/V10__token_scopes.sql"),
      Migration.of("db/postgres/V11__token_names_expiry.sql"),
      Migration.of("db/postgres/V12__dataset_format.sql"),
      Migration.of("db/postgres/V13__shares.sql"),
      Migration.of("db/postgres/V14__boards.sql"),
      Migration.of("db/postgres/V15__schedules.sql")));

  /** Any number that names Quarry's migrations among a database's advisory locks. */
  private static final long MIGRATION_LOCK = 0x5155_4152_5259L;

  final String begin;
  /**
   * Migrations' transactions: on PostgreSQL read committed, so that the version read once the advisory lock is
   * held is what the node that held it before committed (a serializable snapshot would be older than the lock).
   */
  final String beginMigration;
  /** Append only: migration {@code i} (1-based) brings the database to version {@code i}. */
  final List<Migration> migrations;
  private final Map<String, String> translated = new ConcurrentHashMap<>();

  Dialect(String begin, String beginMigration, List<Migration> migrations) {
    this.begin = begin;
    this.beginMigration = beginMigration;
    this.migrations = migrations;
  }

  /**
   * The statement as this database takes it. SQLite has no row locks: its transactions begin IMMEDIATE, holding the
   * one write lock throughout, so {@code FOR UPDATE} goes.
   */
  String sql(String portable) {
    return translated.computeIfAbsent(portable, this == SQLITE ? s -> s.replace(" FOR UPDATE", "") : Dialect::numbered);
  }

  /** A transaction that lost a race with another (PostgreSQL's deadlock or serialization failure) can run again. */
  boolean retryable(Throwable e) {
    return e instanceof PgException pg && ("40001".equals(pg.getSqlState()) || "40P01".equals(pg.getSqlState()));
  }

  /** Inside the migrations' transaction: waits for any other node migrating, then reads the version. */
  Future<Integer> version(SqlConnection conn) {
    if (this == SQLITE) {
      return conn.query("PRAGMA user_version").execute().map(rows -> rows.iterator().next().getInteger(0));
    }
    return conn.query("SELECT pg_advisory_xact_lock(" + MIGRATION_LOCK + ")").execute()
        .compose(locked -> conn.query("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)").execute())
        .compose(created -> conn.query("SELECT coalesce(max(version), 0) FROM schema_version").execute())
        .map(rows -> rows.iterator().next().getLong(0).intValue());
  }

  Future<Void> setVersion(SqlConnection conn, int version) {
    String sql = this == SQLITE ? "PRAGMA user_version = " + version
        : "DELETE FROM schema_version; INSERT INTO schema_version VALUES (" + version + ")";
    return conn.query(sql).execute().mapEmpty();
  }

  /** {@code ?} → {@code $n}, except inside quoted strings and identifiers. */
  static String numbered(String sql) {
    StringBuilder out = new StringBuilder(sql.length() + 16);
    char quote = 0;
    int n = 0;
    for (int i = 0; i < sql.length(); i++) {
      char c = sql.charAt(i);
      if (quote != 0) {
        quote = c == quote ? 0 : quote;
        out.append(c);
      } else if (c == '\'' || c == '"') {
        quote = c;
        out.append(c);
      } else if (c == '?') {
        out.append('$').append(++n);
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
