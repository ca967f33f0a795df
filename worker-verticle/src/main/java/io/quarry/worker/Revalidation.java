package io.quarry.worker;

import io.quarry.bus.DataFormat;
import io.quarry.bus.FileEnd;
import io.quarry.bus.Source;
import io.quarry.bus.net.Deadline;
import io.quarry.bus.net.OutboundHttp;
import io.quarry.bus.net.OutboundHttp.Exchange;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import java.net.URI;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The cache's revalidation, the one place that decides whether the copy held of a URL may be used. A copy its server
 * confirmed within its freshness window ({@link Freshness}) is used as it is, unless the dataset records another
 * version (found by a refresh or a version check, which ask the origin themselves); otherwise its server is asked
 * (If-None-Match / If-Modified-Since) whether that copy is still its current content; a new version is fetched
 * ({@link NewCopies}).
 * Concurrent uses of one URL share one request. Lives on the worker verticle's event loop.
 */
final class Revalidation {

  /**
   * The end of a file asked for with each revalidation: the footer's length and the closing magic number. An
   * unchanged file is a 304 as before; a new version costs one more request, for exactly its footer.
   */
  static final int TAIL_BYTES = 8;

  /**
   * The end of a file no copy is held of: its footer, for most files, comes in the same answer, so a first read of a
   * file far away costs one round trip, not two.
   */
  static final int NEW_COPY_TAIL_BYTES = 64 * 1024;

  /** Tables whose files are being revalidated, and when the oldest of their cached copies was last confirmed. */
  record Unconfirmed(List<String> tables, Instant confirmedAt) {
  }

  private final Vertx vertx;
  private final OutboundHttp http;
  private final long timeoutMs;
  private final CachedCopies copies;
  private final NewCopies newCopies;
  private final CacheFailures failures;
  private final Map<String, Future<Path>> inflight = new HashMap<>();

  Revalidation(Vertx vertx, OutboundHttp http, long timeoutMs, CachedCopies copies, NewCopies newCopies,
      CacheFailures failures) {
    this.vertx = vertx;
    this.http = http;
    this.timeoutMs = timeoutMs;
    this.copies = copies;
    this.newCopies = newCopies;
    this.failures = failures;
  }

  /**
   * The URL's current file: the copy held while it is fresh and of the version {@code recorded} (null: none known),
   * else once its server confirms it, else its new version's. With no copy held, a new one starts from {@code end}
   * (the file's last bytes as adding it just read them; null: none) without asking the server. A file of a text
   * {@code format} is fetched whole (see {@link TextCopies}).
   */
  Future<Path> current(String url, Source recorded, FileEnd end, DataFormat format) {
    CachedCopies.Entry held = copies.get(url);
    if (held != null && asRecorded(held, recorded) && held.fresh(Instant.now(), recorded)) {
      CacheMetrics.fresh();
      return Future.succeededFuture(held.file());
    }
    Future<Path> running = inflight.get(url);
    if (running != null) {
      return running;
    }
    Future<Path> fetched = format != DataFormat.PARQUET ? revalidate(url, format)
        : held == null && end != null ? begin(url, end) : revalidate(url, format);
    if (!fetched.isComplete()) {
      inflight.put(url, fetched);
      fetched.onComplete(done -> inflight.remove(url));
    }
    return fetched;
  }

  /**
   * Whether the copy held is the version its dataset records (or none is recorded). A dataset records the ETag, or the
   * Last-Modified of a server that gives none, and the size.
   */
  private static boolean asRecorded(CachedCopies.Entry held, Source recorded) {
    if (recorded == null) {
      return true;
    }
    boolean sameSize = recorded.size() == null || held.size() < 0 || recorded.size() == held.size();
    String version = recorded.etag();
    return sameSize && (version == null || version.equals(held.etag()) || version.equals(held.lastModified()));
  }

  /**
   * Of the given tables, those whose revalidation has not ended (all of them if none is under way), with the
   * oldest confirmation among their cached copies.
   */
  Unconfirmed unconfirmed(Map<String, String> tables) {
    List<String> pending = tables.keySet().stream().filter(name -> inflight.containsKey(tables.get(name))).toList();
    List<String> named = pending.isEmpty() ? List.copyOf(tables.keySet()) : pending;
    Instant oldest = named.stream().map(name -> copies.get(tables.get(name))).filter(Objects::nonNull)
        .map(CachedCopies.Entry::confirmed).min(Comparator.naturalOrder()).orElse(Instant.now());
    return new Unconfirmed(named, oldest);
  }

  /** A copy begun from the bytes adding the file read; should they not make one, the server is asked as ever. */
  private Future<Path> begin(String url, FileEnd end) {
    URI uri = OutboundHttp.parse(url).orElse(null);
    boolean whole = end.from() >= 0 && end.size() - end.from() == end.bytes().length;
    if (uri == null || !whole) {
      return revalidate(url, DataFormat.PARQUET);
    }
    return newCopies.fromEnd(url, uri, end).onSuccess(copy -> CacheMetrics.begun(end.bytes().length))
        .recover(e -> revalidate(url, DataFormat.PARQUET));
  }

  /**
   * One request both revalidates and, for a new version, says how long its footer is: the file's last
   * {@link #TAIL_BYTES}, or {@link #NEW_COPY_TAIL_BYTES} when there is nothing to revalidate. A text file held is
   * revalidated the same way; one not held is asked for whole.
   */
  private Future<Path> revalidate(String url, DataFormat format) {
    URI uri = OutboundHttp.parse(url).orElse(null);
    if (uri == null) {
      return Future.failedFuture(QueryFailure.network(url, "The URL is not a valid http(s) URL"));
    }
    CachedCopies.Entry cached = copies.get(url);
    Map<String, String> headers = conditional(cached);
    if (cached != null || format == DataFormat.PARQUET) {
      headers.put("Range", "bytes=-" + (cached == null ? NEW_COPY_TAIL_BYTES : TAIL_BYTES));
    }
    Deadline deadline = new Deadline(vertx, timeoutMs);
    Future<Path> outcome = http.send(HttpMethod.GET, uri, headers, deadline)
        .compose(exchange -> answer(url, uri, cached, exchange, format, deadline));
    return deadline.close(outcome).recover(e -> Future.failedFuture(failures.explain(url, e)));
  }

  /** Runs where the response's headers arrive, before any of its body: a download can still pause it. */
  private Future<Path> answer(String url, URI uri, CachedCopies.Entry cached, Exchange exchange, DataFormat format,
      Deadline deadline) {
    int status = exchange.response().statusCode();
    TailResponse tail = TailResponse.of(exchange.response());
    boolean current = cached != null && (status == 304 || ((status == 200 || status == 206) && sameVersion(cached, tail)));
    CacheMetrics.revalidated(current);
    if (current) {
      exchange.discard();
      copies.confirmed(url, cached.file(), tail);
      return Future.succeededFuture(cached.file());
    }
    if (status != 200 && status != 206) {
      exchange.discard();
      return Future.failedFuture(QueryFailure.network(url, "The server answered HTTP " + status));
    }
    if (format != DataFormat.PARQUET && status == 206) {
      // A text file's new version: its end says only that it changed; the whole of it is asked for.
      exchange.discard();
      return http.send(HttpMethod.GET, uri, Map.of(), deadline).compose(whole -> whole.response().statusCode() == 200
          ? newCopies.fetch(url, uri, whole, TailResponse.of(whole.response()), format)
          : refusedWhole(url, whole));
    }
    return newCopies.fetch(url, uri, exchange, tail, format);
  }

  private static Future<Path> refusedWhole(String url, Exchange exchange) {
    exchange.discard();
    return Future.failedFuture(QueryFailure.network(url, "The server answered HTTP "
        + exchange.response().statusCode()));
  }

  private static Map<String, String> conditional(CachedCopies.Entry cached) {
    Map<String, String> headers = new HashMap<>();
    if (cached != null && cached.etag() != null) {
      headers.put("If-None-Match", cached.etag());
    }
    if (cached != null && cached.lastModified() != null) {
      headers.put("If-Modified-Since", cached.lastModified());
    }
    return headers;
  }

  /** Servers that ignore conditional requests still say which version they send. */
  private static boolean sameVersion(CachedCopies.Entry cached, TailResponse response) {
    boolean sameLength = response.size() == cached.size();
    return (response.etag() != null && response.etag().equals(cached.etag()) && sameLength)
        || (response.etag() == null && response.lastModified() != null
        && response.lastModified().equals(cached.lastModified()) && sameLength);
  }
}
