package io.quarry.worker;

import io.quarry.bus.WorkerReply;
import io.quarry.bus.net.AddressPolicy;
import io.quarry.bus.net.OutboundHttp;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The first add and the first query a worker process serves would otherwise run code nobody has run in it yet: DuckDB's
 * Parquet reader and metadata functions, the footer's decoding, a locked-down database's making, the statement check,
 * the reply's encoding, and a download's ranges coming in over HTTP and written at their place. Run once at start,
 * over small files of the worker's own, before it says it is ready, they no longer cost its first user ~250 ms
 * (bench/run.sh cold). The files and the database are gone before the first query.
 */
final class Warmup {

  private static final String TABLE = "warm_up";
  private static final String SQL = "SELECT k, count(*) AS n, avg(x) AS x, max(day) AS day FROM " + TABLE
      + " WHERE s <> '' GROUP BY k ORDER BY k";

  private static final long FETCH_BYTES = 8L << 20;
  private static final int FETCH_RANGES = 64;
  private static final int FETCH_CONNECTIONS = 8;
  private static final Pattern RANGE = Pattern.compile("bytes=(\\d+)-(\\d+)");

  private Warmup() {
  }

  /** A query's way over a small Parquet file: blocks (a worker thread's). */
  static Void query(QueryEngine engine, DuckInstances instances, Path home) throws SQLException, IOException {
    Path file = home.resolve("warm-up.parquet");
    try {
      try (Connection c = DuckInstances.newDatabase(1); Statement s = c.createStatement()) {
        s.execute("COPY (SELECT i AS id, i % 7 AS k, 'v' || i AS s, DATE '2024-01-01' + (i % 366)::INT AS day,"
            + " i * 0.5 AS x FROM range(5000) t(i)) TO " + DuckInstances.literal(file.toString())
            + " (FORMAT PARQUET, ROW_GROUP_SIZE 1000)");
      }
      instances.layout(file, Layout.footerAt(file));
      Reads reads = engine.check(SQL, Set.of(TABLE));
      BitSet unfetched = new BitSet();
      unfetched.set(0); // a sparse copy's placeholder, as a first query over a big file has
      Map<String, Placeholders.Bound> bindings = Map.of(TABLE, new Placeholders.Bound(file, unfetched, "warm-up"));
      WorkerReply.encode(engine.run(bindings, reads, SQL, 10_000, (delayMs, action) -> () -> { }), "");
      return null;
    } finally {
      instances.forget(file);
      Files.deleteIfExists(file);
    }
  }

  /**
   * Ranges of a file fetched through the worker's own code from a server of its own on loopback, which only this
   * warm-up's client (one that may reach loopback) asks, and which closes when it is done. Fails after 10 s at most;
   * gives the bytes received.
   */
  static Future<Long> fetch(Vertx vertx, Path home) {
    Path source = home.resolve("warm-up-source.bin");
    Path target = home.resolve("warm-up-target.bin");
    OutboundHttp http = new OutboundHttp(vertx, AddressPolicy.of(true, ""), 10_000, "", FETCH_CONNECTIONS);
    Future<HttpServer> serving = vertx.executeBlocking(() -> {
      sized(source);
      sized(target);
      return null;
    }, false).compose(v -> vertx.createHttpServer().requestHandler(request -> serve(request, source))
        .listen(0, "127.0.0.1"));
    AtomicLong received = new AtomicLong();
    Future<Long> fetched = serving.compose(server -> {
      URI url = URI.create("http://127.0.0.1:" + server.actualPort() + "/warm-up");
      List<ByteRange> ranges = new ArrayList<>();
      for (long from = 0; from < FETCH_BYTES; from += FETCH_BYTES / FETCH_RANGES) {
        ranges.add(new ByteRange(from, from + FETCH_BYTES / FETCH_RANGES));
      }
      return new RangeFetch(vertx, http, FETCH_CONNECTIONS, 10_000)
          .into(new RangeFetch.Version(url, null, null, FETCH_BYTES), target, ranges, received::addAndGet).future()
          .map(v -> received.get());
    });
    return fetched.eventually(() -> http.close()
        .transform(v -> serving.succeeded() ? serving.result().close() : Future.succeededFuture())
        .transform(v -> vertx.executeBlocking(() -> {
          Files.deleteIfExists(source);
          Files.deleteIfExists(target);
          return null;
        }, false)));
  }

  private static void sized(Path file) throws IOException {
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      f.setLength(FETCH_BYTES);
    }
  }

  /** A range of the source, as a static file server answers it. */
  private static void serve(HttpServerRequest request, Path source) {
    Matcher range = RANGE.matcher(String.valueOf(request.getHeader("Range")));
    if (!range.matches()) {
      request.response().setStatusCode(416).end();
      return;
    }
    long from = Long.parseLong(range.group(1));
    long to = Long.parseLong(range.group(2));
    request.response().setStatusCode(206).putHeader("Content-Range", "bytes " + from + "-" + to + "/" + FETCH_BYTES)
        .sendFile(source.toString(), from, to - from + 1);
  }
}
