package io.quarry.worker;

import io.quarry.bus.Failure;
import io.quarry.bus.PrivateFiles;
import io.quarry.bus.QuarryException;
import io.quarry.bus.Sizes;
import io.quarry.bus.net.Deadline;
import io.quarry.bus.net.OutboundHttp;
import io.quarry.bus.net.OutboundHttp.Exchange;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.http.HttpMethod;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.BitSet;
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
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A size-bounded LRU disk cache of remote Parquet files, revalidated against the URL on every use
 * (If-None-Match / If-Modified-Since), so queries always see the URL's current content. A server that honours
 * {@code Range} is read sparsely: the footer first (its length comes with the revalidation), then only the
 * columns queries read ({@link SparseCopy}); one that does not is downloaded whole. Concurrent uses of one URL
 * share one request, and queries needing the same columns share one fetch. A file in use by a query is pinned:
 * neither evicted nor deleted until released. The limit counts bytes held, not file sizes. All state lives on
 * the owning verticle's event loop.
 */
final class ParquetCache {

  /**
   * The end of a file asked for with each revalidation: the footer's length and the closing magic number. An
   * unchanged file is a 304 as before; a new version costs one more request, for exactly its footer.
   */
  static final int TAIL_BYTES = 8;
  /** Ranges closer than this are fetched in one request; requests are cut at {@link #PIECE_BYTES}. */
  private static final long GAP_BYTES = 256 * 1024;
  static final long PIECE_BYTES = 16L << 20;

  /**
   * @param maxQueryBytes the most one query may move from one file
   * @param parallel      connections one fetch uses at most
   */
  record Settings(Path dir, long maxBytes, long maxFileSize, long maxQueryBytes, long maxFooterBytes,
      long downloadTimeoutMs, int parallel, long wholeFileBelowBytes) {
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

  /** Bytes one query has asked to move, per URL, against {@link Settings#maxQueryBytes}. */
  static final class Budget {
    private final Map<String, Long> used = new HashMap<>();
  }

  /** Bytes moving for a URL now: received so far, and expected (-1 when its server did not say). */
  static final class Download {
    long expected;
    long received;
    private int transfers;

    void received(long bytes) {
      received += bytes;
      CacheMetrics.fetched(bytes);
    }
  }

  private final Vertx vertx;
  private final OutboundHttp http;
  private final RangeFetch ranges;
  private final Settings settings;
  private final BiFunction<Path, Long, Future<Layout>> layouts;
  private final Consumer<Path> onDropped;
  private final LinkedHashMap<String, Entry> entries = new LinkedHashMap<>(16, 0.75f, true);
  private final Map<Path, SparseCopy> sparse = new HashMap<>();
  private final Map<String, Download> downloading = new HashMap<>();
  private final Map<String, Future<Path>> inflight = new HashMap<>();
  private final Map<Path, Integer> pins = new HashMap<>();
  private final Set<Path> doomed = new HashSet<>();
  private long versions;

  /**
   * @param layouts   reads a sparse copy's layout from its footer (off the event loop)
   * @param onDropped told of every file that leaves the cache, once no query uses it
   */
  ParquetCache(Vertx vertx, OutboundHttp http, Settings settings, BiFunction<Path, Long, Future<Layout>> layouts,
      Consumer<Path> onDropped) {
    this.vertx = vertx;
    this.http = http;
    this.ranges = new RangeFetch(vertx, http, settings.parallel(), settings.downloadTimeoutMs());
    this.settings = settings;
    this.layouts = layouts;
    this.onDropped = onDropped;
  }

  /** Starts empty: files left by an earlier run have no recorded version to revalidate against. */
  Future<Void> open() {
    String dir = settings.dir().toString();
    return vertx.fileSystem().exists(dir)
        .compose(exists -> exists ? vertx.fileSystem().deleteRecursive(dir) : Future.succeededFuture())
        .compose(v -> vertx.fileSystem().mkdirs(dir, PrivateFiles.DIRECTORY));
  }

  Pins pins() {
    return new Pins();
  }

  /** Every URL's current file (for a sparse copy, its footer), each pinned in {@code pins} as soon as it is known. */
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
   * The files the cache holds now for every URL, with every column {@code reads} needs, pinned in {@code into};
   * or empty when one is missing: a query can start on them while {@link #fetchAll} revalidates.
   */
  Optional<Map<String, Path>> cached(Map<String, String> tables, Reads reads, Pins into) {
    Map<String, Path> files = held(tables, into);
    boolean complete = files.size() == tables.size() && files.values().stream().allMatch(file -> {
      SparseCopy copy = sparse.get(file);
      return copy == null || copy.missing(reads.columnsOf(copy.layout.columns())).isEmpty();
    });
    return complete ? Optional.of(files) : Optional.empty();
  }

  /**
   * The versions of these tables' files the cache holds now, as a result records what it read:
   * {@code [{table, url, etag, last_modified, size}]}.
   */
  JsonArray sources(Map<String, String> tables) {
    JsonArray sources = new JsonArray();
    tables.forEach((name, url) -> {
      Entry entry = entries.get(url);
      if (entry != null) {
        sources.add(new JsonObject().put("table", name).put("url", url).put("etag", entry.etag())
            .put("last_modified", entry.lastModified()).put("size", entry.size()));
      }
    });
    return sources;
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

  /** The columns of a file its copy does not hold, which a database shows as placeholders (none for a whole file). */
  BitSet unfetched(Path file) {
    SparseCopy copy = sparse.get(file);
    return copy == null ? new BitSet() : copy.unfetched();
  }

  /**
   * Fetches into every table's pinned copy the columns {@code wanted} picks from its layout that it does not hold
   * yet. Fails, before moving a byte, when that takes a file's bytes for this query past
   * {@link Settings#maxQueryBytes}. Once {@code gaveUp} completes, a fetch no other query waits for is cancelled.
   */
  Future<Void> columns(Map<String, String> tables, Map<String, Path> files, Function<Layout, BitSet> wanted,
      Budget budget, Future<?> gaveUp) {
    List<Future<Void>> fetches = new ArrayList<>();
    for (Map.Entry<String, Path> table : files.entrySet()) {
      SparseCopy copy = sparse.get(table.getValue());
      String url = tables.get(table.getKey());
      if (copy == null || url == null) {
        continue;
      }
      BitSet want = wanted.apply(copy.layout);
      BitSet missing = copy.missing(want);
      if (missing.isEmpty()) {
        continue;
      }
      long total = budget.used.getOrDefault(url, 0L) + copy.toFetch(want);
      if (total > settings.maxQueryBytes()) {
        return Future.failedFuture(overQueryLimit(url, total, copy.version.size()));
      }
      budget.used.put(url, total);
      fetches.addAll(join(url, table.getValue(), copy, missing, gaveUp));
    }
    return Future.all(fetches).mapEmpty();
  }

  private List<Future<Void>> join(String url, Path file, SparseCopy copy, BitSet missing, Future<?> gaveUp) {
    Set<SparseCopy.Shared> joined = new HashSet<>();
    BitSet fresh = new BitSet();
    missing.stream().forEach(column -> {
      SparseCopy.Shared running = copy.fetching.get(column);
      if (running != null) {
        joined.add(running);
      } else {
        fresh.set(column);
      }
    });
    if (!fresh.isEmpty()) {
      joined.add(start(url, file, copy, fresh));
    }
    List<Future<Void>> waits = new ArrayList<>();
    for (SparseCopy.Shared shared : joined) {
      shared.waiting++;
      gaveUp.onComplete(given -> {
        if (--shared.waiting == 0) {
          shared.transfer.cancel(new TimeoutException("Nobody waits for this fetch any more"));
        }
      });
      waits.add(shared.transfer.future().recover(e -> Future.failedFuture(e instanceof RangeFetch.Changed
          ? e : explain(url, e))));
    }
    return waits;
  }

  private SparseCopy.Shared start(String url, Path file, SparseCopy copy, BitSet columns) {
    List<ByteRange> requests = ByteRange.requests(copy.layout.rangesOf(columns), GAP_BYTES, PIECE_BYTES);
    Download progress = progress(url, ByteRange.total(requests));
    SparseCopy.Shared shared = new SparseCopy.Shared(ranges.into(copy.version, file, requests, progress::received));
    columns.stream().forEach(column -> copy.fetching.put(column, shared));
    shared.transfer.future().onComplete(done -> {
      columns.stream().forEach(column -> copy.fetching.remove(column, shared));
      finished(url, progress);
      if (done.succeeded()) {
        copy.hold(columns);
        evictBeyondLimit(file);
      } else if (done.cause() instanceof RangeFetch.Changed || diskFull(done.cause())) {
        // A full disk: what the failed fetch wrote is not held but takes space, which only deleting the copy gives back.
        forgetVersion(url, file);
      }
    });
    return shared;
  }

  private Download progress(String url, long expected) {
    Download download = downloading.computeIfAbsent(url, u -> new Download());
    download.transfers++;
    download.expected = expected < 0 || download.expected < 0 ? -1 : download.expected + expected;
    return download;
  }

  private void finished(String url, Download download) {
    if (--download.transfers == 0) {
      downloading.remove(url, download);
    }
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

  /** One request both revalidates and, for a new version, says how long its footer is: the file's last {@link #TAIL_BYTES}. */
  private Future<Path> revalidate(String url) {
    URI uri = OutboundHttp.parse(url).orElse(null);
    if (uri == null) {
      return Future.failedFuture(QueryFailure.network(url, "The URL is not a valid http(s) URL"));
    }
    Entry cached = entries.get(url);
    Map<String, String> headers = conditional(cached);
    headers.put("Range", "bytes=-" + TAIL_BYTES);
    Deadline deadline = new Deadline(vertx, settings.downloadTimeoutMs());
    Future<Path> outcome = http.send(HttpMethod.GET, uri, headers, deadline)
        .compose(exchange -> answer(url, uri, cached, exchange));
    return deadline.close(outcome)
        .recover(e -> Future.failedFuture(e instanceof RangeFetch.Changed ? e : explain(url, e)));
  }

  /** Runs where the response's headers arrive, before any of its body: a download can still pause it. */
  private Future<Path> answer(String url, URI uri, Entry cached, Exchange exchange) {
    int status = exchange.response().statusCode();
    TailResponse tail = TailResponse.of(exchange.response());
    boolean current = cached != null && (status == 304 || ((status == 200 || status == 206) && sameVersion(cached, tail)));
    CacheMetrics.revalidated(current);
    if (current) {
      exchange.discard();
      entries.computeIfPresent(url, (u, entry) -> entry.file().equals(cached.file()) ? entry.confirmedNow() : entry);
      return Future.succeededFuture(cached.file());
    }
    if (status != 200 && status != 206) {
      exchange.discard();
      return Future.failedFuture(QueryFailure.network(url, "The server answered HTTP " + status));
    }
    if (tail.size() > settings.maxFileSize()) {
      exchange.discard();
      return Future.failedFuture(tooLarge(url));
    }
    return status == 206 ? sparseCopy(url, uri, exchange, tail) : whole(url, exchange, tail.size());
  }

  /** A new version from a server that honours {@code Range}: its footer now, its columns when queries need them. */
  private Future<Path> sparseCopy(String url, URI uri, Exchange exchange, TailResponse tail) {
    Path target = newFile(url);
    RangeFetch.Version version = new RangeFetch.Version(uri, tail.etag(), tail.lastModified(), tail.size());
    return Footer.fetch(vertx, exchange, tail, target, settings.maxFooterBytes(), settings.wholeFileBelowBytes(), ranges,
        version)
        .compose(footer -> footer.whole()
            ? install(url, tail, target, null)
            : layouts.apply(target, footer.at()).recover(e -> Future.failedFuture(
                e instanceof java.sql.SQLException || e instanceof java.io.IOException ? unreadable(url, target, e) : e))
                .compose(layout ->
                install(url, tail, target, new SparseCopy(layout, version, tail.size() - footer.heldFrom()))))
        .onFailure(e -> vertx.fileSystem().delete(target.toString()).otherwiseEmpty());
  }

  /** A server that ignores {@code Range}: the whole file, which is also every query's read of it. */
  private Future<Path> whole(String url, Exchange exchange, long length) {
    if (length > settings.maxQueryBytes()) {
      exchange.discard();
      return Future.failedFuture(overQueryLimit(url, length, length));
    }
    Download progress = progress(url, length);
    Path part = settings.dir().resolve("download-" + (++versions) + ".part");
    long limit = Math.min(settings.maxFileSize(), settings.maxQueryBytes());
    return FullDownload.to(vertx, part, exchange, progress, limit, () -> limit == settings.maxFileSize()
            ? tooLarge(url) : overQueryLimit(url, progress.received, -1))
        .eventually(() -> {
          finished(url, progress);
          return Future.succeededFuture();
        })
        .compose(size -> {
          Path target = newFile(url);
          return vertx.fileSystem().move(part.toString(), target.toString())
              .compose(v -> install(url, TailResponse.of(exchange.response()).withSize(size), target, null));
        });
  }

  /** A footer DuckDB cannot read: the queries that read this file fail with DuckDB's reason, in words. */
  private QuarryException unreadable(String url, Path copy, Throwable e) {
    String duckdb = e.getMessage() == null ? e.toString() : e.getMessage();
    return QueryFailure.unreadable("the file at " + url, EngineText.reason(duckdb.replace(copy.toString(), url),
        Map.of(), settings.dir()));
  }

  private Path newFile(String url) {
    return settings.dir().resolve(sha256(url).substring(0, 32) + "-" + (++versions) + ".parquet");
  }

  private Future<Path> install(String url, TailResponse version, Path target, SparseCopy copy) {
    if (copy != null) {
      sparse.put(target, copy);
    }
    Entry replaced = entries.put(url, new Entry(url, target, version.etag(), version.lastModified(), version.size(),
        Instant.now()));
    if (replaced != null) {
      drop(replaced.file());
    }
    evictBeyondLimit(target);
    return Future.succeededFuture(target);
  }

  /** A copy whose file changed on its server under a fetch: the next use fetches the new version. */
  private void forgetVersion(String url, Path file) {
    Entry entry = entries.get(url);
    if (entry != null && entry.file().equals(file)) {
      entries.remove(url);
      drop(file);
    }
  }

  private long heldBytes(Entry entry) {
    SparseCopy copy = sparse.get(entry.file());
    return copy == null ? entry.size() : copy.heldBytes();
  }

  private void evictBeyondLimit(Path keep) {
    long total = entries.values().stream().mapToLong(this::heldBytes).sum();
    for (Iterator<Entry> it = entries.values().iterator(); it.hasNext() && total > settings.maxBytes(); ) {
      Entry eldest = it.next();
      if (!eldest.file().equals(keep) && !pins.containsKey(eldest.file())) {
        it.remove();
        long freed = heldBytes(eldest);
        total -= freed;
        CacheMetrics.evicted(freed);
        drop(eldest.file());
      }
    }
  }

  private void drop(Path file) {
    if (pins.containsKey(file)) {
      doomed.add(file);
      return;
    }
    SparseCopy copy = sparse.remove(file);
    if (copy != null) {
      copy.fetching.values().forEach(shared -> shared.transfer.cancel(new IllegalStateException("Evicted")));
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
  private static boolean sameVersion(Entry cached, TailResponse response) {
    boolean sameLength = response.size() == cached.size();
    return (response.etag() != null && response.etag().equals(cached.etag()) && sameLength)
        || (response.etag() == null && response.lastModified() != null
        && response.lastModified().equals(cached.lastModified()) && sameLength);
  }

  private QuarryException tooLarge(String url) {
    return new QuarryException(Failure.TOO_LARGE, "The dataset at " + url + " is larger than the "
        + Sizes.human(settings.maxFileSize()) + " limit");
  }

  /** {@code size} -1 when unknown. */
  private QuarryException overQueryLimit(String url, long bytes, long size) {
    return new QuarryException(Failure.TOO_LARGE, "This query would read " + (size < 0 ? "more than "
        + Sizes.human(bytes) : Sizes.human(bytes) + " of " + Sizes.human(size)) + " from " + url
        + ", over the limit of " + Sizes.human(settings.maxQueryBytes()));
  }

  private QuarryException explain(String url, Throwable e) {
    if (e instanceof QuarryException qe) {
      return qe;
    }
    if (e instanceof TimeoutException) {
      return QueryFailure.network(url, "The download did not finish within " + Sizes.seconds(settings.downloadTimeoutMs()));
    }
    String message = e.getMessage() == null ? e.toString() : e.getMessage();
    if (diskFull(e)) {
      return new QuarryException(Failure.UNAVAILABLE, "The query worker's disk is full: it could not store the data"
          + " of " + url + ". Try again shortly.");
    }
    return QueryFailure.network(url, message);
  }

  private static boolean diskFull(Throwable e) {
    return e != null && String.valueOf(e.getMessage()).contains("No space left on device");
  }

  private static String sha256(String text) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
