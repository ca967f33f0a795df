package io.quarry.storage;

import io.vertx.core.Future;
import io.vertx.sqlclient.SqlConnection;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Schema migrations, applied in order inside one transaction each and recorded in SQLite's
 * {@code user_version}, so running them again on a migrated file changes nothing.
 */
final class Migrations {

  private static final Logger log = LoggerFactory.getLogger(Migrations.class);

  /** Append only: migration {@code i} (1-based) brings the file to {@code user_version = i}. */
  private static final List<String> SCRIPTS = List.of("db/V1__schema.sql", "db/V2__notice.sql",
      "db/V3__result_note.sql");

  private Migrations() {
  }

  static int latest() {
    return SCRIPTS.size();
  }

  static Future<Integer> apply(Db db) {
    return db.tx(conn -> conn.query("PRAGMA user_version").execute()
        .map(rows -> rows.iterator().next().getInteger(0))
        .compose(current -> applyFrom(conn, current)));
  }

  private static Future<Integer> applyFrom(SqlConnection conn, int current) {
    Future<Void> chain = Future.succeededFuture();
    for (int version = current + 1; version <= SCRIPTS.size(); version++) {
      int target = version;
      for (String statement : statements(SCRIPTS.get(version - 1))) {
        chain = chain.compose(v -> conn.query(statement).execute().mapEmpty());
      }
      chain = chain.compose(v -> conn.query("PRAGMA user_version = " + target).execute().<Void>mapEmpty())
          .onSuccess(v -> log.info("Database migrated to version {}", target));
    }
    return chain.map(v -> Math.max(current, SCRIPTS.size()));
  }

  static List<String> statements(String resource) {
    String script = read(resource);
    String withoutComments = Arrays.stream(script.split("\n"))
        .filter(line -> !line.stripLeading().startsWith("--"))
        .reduce("", (a, b) -> a + b + "\n");
    return Arrays.stream(withoutComments.split(";"))
        .map(String::strip)
        .filter(s -> !s.isEmpty())
        .toList();
  }

  private static String read(String resource) {
    try (InputStream in = Migrations.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("Missing migration " + resource);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
