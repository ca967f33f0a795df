package io.quarry.storage;

import io.vertx.core.Future;
import io.vertx.sqlclient.SqlConnection;

/**
 * One schema version: its script, and what SQL cannot say alike on both databases (SQLite has no SHA-256), done in
 * Java after it, in the same transaction.
 *
 * @param after null for a script alone
 */
record Migration(String script, Step after) {

  /** Work on the migrating connection; {@code dialect} translates its statements. */
  interface Step {
    Future<Void> apply(SqlConnection conn, Dialect dialect);
  }

  static Migration of(String script) {
    return new Migration(script, null);
  }

  static Migration of(String script, Step after) {
    return new Migration(script, after);
  }
}
