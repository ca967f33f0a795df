package io.quarry.storage;

import io.quarry.bus.Sha256;
import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * Invites are stored as the SHA-256 of their code, as sessions are of their token: a copy of the database (or a
 * look at it by another account) signs nobody up. The code itself is shown once, by {@code invite create}. A code is
 * 128 random bits, so an unsalted fast hash is enough: there is nothing to guess from it.
 */
final class InviteCodes {

  private static final SecureRandom RANDOM = new SecureRandom();

  private InviteCodes() {
  }

  static String newCode() {
    byte[] bytes = new byte[16];
    RANDOM.nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
  }

  static String hash(String code) {
    return Sha256.hex(code);
  }

  /** The migration that renamed {@code invites.code} to {@code code_hash}: what it holds (codes) becomes hashes. */
  static Future<Void> hashStored(SqlConnection conn, Dialect dialect) {
    return conn.query("SELECT code_hash FROM invites").execute().compose(rows -> {
      Future<Void> chain = Future.succeededFuture();
      for (Row row : rows) {
        String code = row.getString(0);
        chain = chain.compose(v -> conn.preparedQuery(dialect.sql(
            "UPDATE invites SET code_hash = ? WHERE code_hash = ?")).execute(Tuple.of(hash(code), code)).mapEmpty());
      }
      return chain;
    });
  }
}
