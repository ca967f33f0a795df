package io.quarry.worker;

import io.quarry.bus.Failure;
import io.quarry.bus.QuarryException;
import io.quarry.bus.Sizes;
import io.quarry.bus.net.Deadline;
import io.quarry.bus.net.OutboundHttp;
import io.quarry.bus.net.OutboundHttp.Exchange;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.file.AsyncFile;
import io.vertx.core.file.OpenOptions;
import io.vertx.core.http.HttpMethod;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * A size-bounded LRU disk cache of downloaded Parquet files, revalidated against the URL on every use
 * (If-None-Match / If-Modified-Since), so queries always see the URL's current content. Concurrent uses
 * of one URL share one request. A file in use by a query is pinned: neither evicted nor deleted until
 * released. All state lives on the owning verticle's event loop.
 */
final class ParquetCache {

  record Settings(Path dir, long maxBytes, long maxFileSize, long downloadTimeoutMs) {
  }

  /** @param confirmed when the URL's server last said this is its current content */
  private record Entry(String url, Path file, String etag, String lastModified, long size, Instant confirmed) {
    Entry confirmedNow() {
      return new Entry(url, file, etag, lastModified, size, Instant.now());
    }
  }

  /** Tables whose files are being revalidated, and when the oldest of their cached copies was last confirmed. */
  record Unconfirmed(List<String> tables, Instant confirmedAt) {
  }

  /** Files a query holds; releasing twice, or pinning after release, is harmless. */
  final class Pins {
    private final List<Path> held = new ArrayList<>();
    private boolean released;

    private void hold(Path file) {
      if (released) {
        return;
      }
      held.add(file);
      pins.merge(file, 1, Integer::sum);
    }

    void release() {
      if (released) {
        return;
      }
      released = true;
      held.forEach(ParquetCache.this::unpin);
    }
  }

  /** A download under way: bytes received so far, and expected (-1 when its server did not say). */
  static final class Download {
    final long expected;
    long received;

    private Download(long expected) {
      this.expected = expected;
    }
  }

  private final Vertx vertx;
  private final OutboundHttp http;
  private final Settings settings;
  private final Consumer<Path> onDropped;
  private final LinkedHashMap<String, Entry> entries = new LinkedHashMap<>(16, 0.75f, true);
  private final Map<String, Download> downloading = new HashMap<>();
  private final Map<String, Future<Path>> inflight = new HashMap<>();
  private final Map<Path, Integer> pins = new HashMap<>();
  private final Set<Path> doomed = new HashSet<>();
  private long totalBytes;
  private long versions;

  /** @param onDropped told of every file that leaves the cache, once no query uses it */
  ParquetCache(Vertx vertx, OutboundHttp http, Settings settings, Consumer<Path> onDropped) {
    this.vertx = vertx;
    this.http = http;
    this.settings = settings;
    this.onDropped = onDropped;
  }

  /** Starts empty: files left by an earlier run have no recorded version to revalidate against. */
  Future<Void> open() {
    String dir = settings.dir().toString();
    return vertx.fileSystem().exists(dir)
        .compose(exists -> exists ? vertx.fileSystem().deleteRecursive(dir) : Future.succeededFuture())
        .compose(v -> vertx.fileSystem().mkdirs(dir));
  }

  Pins pins() {
    return new Pins();
  }

  /** Every URL's current file, each pinned in {@code pins} as soon as it is known. */
  Future<Map<String, Path>> fetchAll(Map<String, String> tables, Pins into) {
    Map<String, Path> files = new LinkedHashMap<>();
    List<Future<Path>> fetches = new ArrayList<>();
    tables.forEach((name, url) -> fetches.add(fetch(url).onSuccess(file -> {
      into.hold(file);
      files.put(name, file);
    })));
    return Future.all(fetches).map(all -> {
      Map<String, Path> ordered = new LinkedHashMap<>();
      tables.keySet().forEach(name -> ordered.put(name, files.get(name)));
      return ordered;
    });
  }

  /**
   * The files the cache holds now for every URL, pinned in {@code into}, or empty when one is missing:
   * a query can start on them while {@link #fetchAll} revalidates.
   */
  Optional<Map<String, Path>> cached(Map<String, String> tables, Pins into) {
    Map<String, Path> files = held(tables, into);
    return files.size() == tables.size() ? Optional.of(files) : Optional.empty();
  }

  /** Of these tables, those whose file the cache holds now, pinned in {@code into}: nothing is fetched or revalidated. */
  Map<String, Path> held(Map<String, String> tables, Pins into) {
    Map<String, Path> files = new LinkedHashMap<>();
    tables.forEach((name, url) -> {
      Entry entry = entries.get(url);
      if (entry != null) {
        into.hold(entry.file());
        files.put(name, entry.file());
      }
    });
    return files;
  }

  /** Of these tables, those whose file is downloading now, with how far each has come. */
  Map<String, Download> downloads(Map<String, String> tables) {
    Map<String, Download> now = new LinkedHashMap<>();
    tables.forEach((name, url) -> {
      Download download = downloading.get(url);
      if (download != null) {
        now.put(name, download);
      }
    });
    return now;
  }

  /**
   * Of the given tables, those whose revalidation has not ended (all of them if none is under way), with the
   * oldest confirmation among their cached copies.
   */
  Unconfirmed unconfirmed(Map<String, String> tables) {
    List<String> pending = tables.keySet().stream().filter(name -> inflight.containsKey(tables.get(name))).toList();
    List<String> named = pending.isEmpty() ? List.copyOf(tables.keySet()) : pending;
    Instant oldest = named.stream().map(name -> entries.get(tables.get(name))).filter(Objects::nonNull)
        .map(Entry::confirmed).min(Comparator.naturalOrder()).orElse(Instant.now());
    return new Unconfirmed(named, oldest);
  }

  Future<Path> fetch(String url) {
    Future<Path> running = inflight.get(url);
    if (running != null) {
      return running;
    }
    Future<Path> fetched = revalidate(url);
    if (!fetched.isComplete()) {
      inflight.put(url, fetched);
      fetched.onComplete(done -> inflight.remove(url));
    }
    return fetched;
  }

  private Future<Path> revalidate(String url) {
    URI uri = OutboundHttp.parse(url).orElse(null);
    if (uri == null) {
      return Future.failedFuture(QueryFailure.network(url, "The URL is not a valid http(s) URL"));
    }
    Entry cached = entries.get(url);
    Deadline deadline = new Deadline(vertx, settings.downloadTimeoutMs());
    Future<Path> outcome = http.send(HttpMethod.GET, uri, conditional(cached), deadline)
        .compose(exchange -> answer(url, cached, exchange));
    return deadline.close(outcome).recover(e -> Future.failedFuture(explain(url, e)));
  }

  /** Runs where the response's headers arrive, before any of its body: a download can still pause it. */
  private Future<Path> answer(String url, Entry cached, Exchange exchange) {
    int status = exchange.response().statusCode();
    if (cached != null && (status == 304 || (status == 200 && sameVersion(cached, exchange)))) {
      exchange.discard();
      entries.computeIfPresent(url, (u, entry) -> entry.file().equals(cached.file()) ? entry.confirmedNow() : entry);
      return Future.succeededFuture(cached.file());
    }
    if (status != 200) {
      exchange.discard();
      return Future.failedFuture(QueryFailure.network(url, "The server answered HTTP " + status));
    }
    String length = exchange.response().getHeader("Content-Length");
    if (length != null && parseLong(length) > settings.maxFileSize()) {
      exchange.discard();
      return Future.failedFuture(tooLarge(url));
    }
    return downloadTo(url, exchange);
  }

  /**
   * The body waits (paused) until its file is open, so no byte arrives unhandled; an unchanged file
   * (the usual answer, 304) costs no file operation at all.
   */
  private Future<Path> downloadTo(String url, Exchange exchange) {
    exchange.response().pause();
    Path part = settings.dir().resolve("download-" + (++versions) + ".part");
    return vertx.fileSystem().open(part.toString(), new OpenOptions().setWrite(true).setCreateNew(true))
        .compose(file -> {
          Future<Long> received = download(url, exchange, file);
          exchange.response().resume();
          return received.eventually(() -> file.close().otherwiseEmpty());
        })
        .compose(size -> install(url, exchange, part, size))
        .onFailure(e -> {
          exchange.discard();
          vertx.fileSystem().delete(part.toString()).otherwiseEmpty();
        });
  }

  private Future<Long> download(String url, Exchange exchange, AsyncFile file) {
    Promise<Long> done = Promise.promise();
    String length = exchange.response().getHeader("Content-Length");
    Download progress = new Download(length == null ? -1 : parseLong(length));
    downloading.put(url, progress);
    done.future().onComplete(ended -> downloading.remove(url, progress));
    Consumer<Throwable> stop = e -> {
      if (done.tryFail(e)) {
        exchange.discard();
      }
    };
    long[] received = {0};
    exchange.response().handler(chunk -> {
      if (done.future().isComplete()) {
        return; // chunks already on their way when the download stopped (its file is closed by then)
      }
      received[0] += chunk.length();
      progress.received = received[0];
      if (received[0] > settings.maxFileSize()) {
        stop.accept(tooLarge(url));
        return;
      }
      file.write(chunk).onFailure(stop::accept);
      if (file.writeQueueFull()) {
        exchange.response().pause();
        file.drainHandler(v -> exchange.response().resume());
      }
    });
    exchange.response().exceptionHandler(stop::accept);
    exchange.response().endHandler(v -> file.flush().onComplete(flushed -> {
      if (flushed.succeeded()) {
        done.tryComplete(received[0]);
      } else {
        done.tryFail(flushed.cause());
      }
    }));
    return done.future();
  }

  private Future<Path> install(String url, Exchange exchange, Path part, long size) {
    Path target = settings.dir().resolve(sha256(url).substring(0, 32) + "-" + (++versions) + ".parquet");
    return vertx.fileSystem().move(part.toString(), target.toString()).map(v -> {
      Entry entry = new Entry(url, target, exchange.response().getHeader("ETag"),
          exchange.response().getHeader("Last-Modified"), size, Instant.now());
      Entry replaced = entries.put(url, entry);
      totalBytes += size;
      if (replaced != null) {
        totalBytes -= replaced.size();
        drop(replaced.file());
      }
      evictBeyondLimit(target);
      return target;
    });
  }

  private void evictBeyondLimit(Path keep) {
    for (Iterator<Entry> it = entries.values().iterator(); it.hasNext() && totalBytes > settings.maxBytes(); ) {
      Entry eldest = it.next();
      if (!eldest.file().equals(keep) && !pins.containsKey(eldest.file())) {
        it.remove();
        totalBytes -= eldest.size();
        drop(eldest.file());
      }
    }
  }

  private void drop(Path file) {
    if (pins.containsKey(file)) {
      doomed.add(file);
      return;
    }
    vertx.fileSystem().delete(file.toString()).otherwiseEmpty();
    onDropped.accept(file);
  }

  private void unpin(Path file) {
    Integer left = pins.merge(file, -1, Integer::sum);
    if (left != null && left <= 0) {
      pins.remove(file);
      if (doomed.remove(file)) {
        drop(file);
      }
    }
  }

  private static Map<String, String> conditional(Entry cached) {
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
  private static boolean sameVersion(Entry cached, Exchange exchange) {
    String etag = exchange.response().getHeader("ETag");
    String modified = exchange.response().getHeader("Last-Modified");
    String length = exchange.response().getHeader("Content-Length");
    boolean sameLength = length != null && parseLong(length) == cached.size();
    return (etag != null && etag.equals(cached.etag()) && sameLength)
        || (etag == null && modified != null && modified.equals(cached.lastModified()) && sameLength);
  }

  private QuarryException tooLarge(String url) {
    return new QuarryException(Failure.TOO_LARGE, "The dataset at " + url + " is larger than the "
        + Sizes.human(settings.maxFileSize()) + " limit");
  }

  private QuarryException explain(String url, Throwable e) {
    if (e instanceof QuarryException qe) {
      return qe;
    }
    if (e instanceof TimeoutException) {
      return QueryFailure.network(url, "The download did not finish within " + Sizes.seconds(settings.downloadTimeoutMs()));
    }
    return QueryFailure.network(url, e.getMessage() == null ? e.toString() : e.getMessage());
  }

  private static long parseLong(String text) {
    try {
      return Long.parseLong(text.strip());
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private static String sha256(String text) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
