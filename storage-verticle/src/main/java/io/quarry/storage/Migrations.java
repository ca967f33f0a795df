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
 * Schema migrations, applied in order inside one transaction and recorded with the database (see {@link Dialect}),
 * so running them again on a migrated database changes nothing.
 */
final class Migrations {

  private static final Logger log = LoggerFactory.getLogger(Migrations.class);

  private Migrations() {
  }

  static int latest(Dialect dialect) {
    return dialect.migrations.size();
  }

  static Future<Integer> apply(Db db) {
    return apply(db, latest(db.dialect()));
  }

  /** Up to version {@code last} only (tests build an older version's database so). */
  static Future<Integer> apply(Db db, int last) {
    Dialect dialect = db.dialect();
    return db.tx(dialect.beginMigration, conn -> dialect.version(conn)
        .compose(current -> applyFrom(dialect, conn, current, last)));
  }

  private static Future<Integer> applyFrom(Dialect dialect, SqlConnection conn, int current, int last) {
    Future<Void> chain = Future.succeededFuture();
    for (int version = current + 1; version <= last; version++) {
      int target = version;
      Migration migration = dialect.migrations.get(version - 1);
      for (String statement : statements(migration.script())) {
        chain = chain.compose(v -> conn.query(statement).execute().mapEmpty());
      }
      if (migration.after() != null) {
        chain = chain.compose(v -> migration.after().apply(conn, dialect));
      }
      chain = chain.compose(v -> dialect.setVersion(conn, target))
          .onSuccess(v -> log.info("Database migrated to version {}", target));
    }
    return chain.map(v -> Math.max(current, last));
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
