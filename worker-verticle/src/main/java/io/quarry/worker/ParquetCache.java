package io.quarry.worker;

import io.quarry.bus.PrivateFiles;
import io.quarry.bus.DataFormat;
import io.quarry.bus.FileEnd;
import io.quarry.bus.Source;
import io.quarry.bus.net.OutboundHttp;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A size-bounded disk cache of remote files, as a query sees it (a CSV or JSON file's copy is the Parquet file its
 * reader made of it, see {@link TextCopies}): each file revalidated on every use
 * ({@link Revalidation}), read sparsely where its server allows ({@link SparseCopies}), pinned while in use
 * ({@link PinnedFiles}), the least recently used given up past its size ({@link CachedCopies}). The limit counts
 * bytes held, not file sizes. All of it lives on the owning verticle's event loop.
 */
final class ParquetCache {

  /**
   * @param maxQueryBytes the most one query may move from one file
   * @param parallel      connections one fetch uses at most
   */
  record Settings(Path dir, long maxBytes, long maxFileSize, long maxQueryBytes, long maxFooterBytes,
      long downloadTimeoutMs, int parallel, long wholeFileBelowBytes, long freshForMs) {
  }

  private final Vertx vertx;
  private final Settings settings;
  private final Consumer<Path> onDropped;
  private final PinnedFiles pinned = new PinnedFiles(this::delete);
  private final Downloads downloads = new Downloads();
  private final CachedCopies copies;
  private final SparseCopies sparse;
  private final Revalidation revalidation;
  /** Files being deleted now: a query answers once they are gone, so that space it gave back is there when told. */
  private final Set<Future<Void>> deleting = new HashSet<>();

  /**
   * @param layouts   reads a sparse copy's layout from its footer (off the event loop)
   * @param onDropped told of every file that leaves the cache, once no query uses it
   */
  ParquetCache(Vertx vertx, OutboundHttp http, Settings settings, BiFunction<Path, Long, Future<Layout>> layouts,
      TextCopies.Converter converter, Consumer<Path> onDropped) {
    this.vertx = vertx;
    this.settings = settings;
    this.onDropped = onDropped;
    RangeFetch ranges = new RangeFetch(vertx, http, settings.parallel(), settings.downloadTimeoutMs());
    CacheFailures failures = new CacheFailures(settings);
    this.copies = new CachedCopies(settings.maxBytes(), this::heldBytes, pinned, settings.freshForMs());
    this.sparse = new SparseCopies(ranges, downloads, settings.maxQueryBytes(), failures, copies::evictBeyondLimit,
        copies::forget);
    NewCopies newCopies = new NewCopies(vertx, ranges, settings, layouts, downloads, sparse, copies, failures,
        new TextCopies(vertx, converter));
    this.revalidation = new Revalidation(vertx, http, settings.downloadTimeoutMs(), copies, newCopies, failures);
  }

  /** Starts empty: files left by an earlier run have no recorded version to revalidate against. */
  Future<Void> open() {
    String dir = settings.dir().toString();
    return vertx.fileSystem().exists(dir)
        .compose(exists -> exists ? vertx.fileSystem().deleteRecursive(dir) : Future.succeededFuture())
        .compose(v -> vertx.fileSystem().mkdirs(dir, PrivateFiles.DIRECTORY));
  }

  PinnedFiles.Pins pins() {
    return pinned.pins();
  }

  /**
   * Every URL's current file (for a sparse copy, its footer), each pinned in {@code pins} as soon as it is known.
   * {@code recorded}: the version a URL's dataset records, or null; {@code ends}: the last bytes of a URL's file as
   * adding it read them, or null ({@link Revalidation#current}); {@code formats}: each URL's file format.
   */
  Future<Map<String, Path>> fetchAll(Map<String, String> tables, PinnedFiles.Pins into,
      Function<String, Source> recorded, Function<String, FileEnd> ends, Function<String, DataFormat> formats) {
    Map<String, Path> files = new LinkedHashMap<>();
    List<Future<Path>> fetches = new ArrayList<>();
    tables.forEach((name, url) -> fetches.add(revalidation.current(url, recorded.apply(url), ends.apply(url),
        formats.apply(url)).onSuccess(file -> {
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
  Optional<Map<String, Path>> cached(Map<String, String> tables, Reads reads, PinnedFiles.Pins into) {
    Map<String, Path> files = held(tables, into);
    boolean complete = files.size() == tables.size() && files.values().stream().allMatch(file -> sparse.holds(file, reads));
    return complete ? Optional.of(files) : Optional.empty();
  }

  /**
   * The versions of these tables' files the cache holds now, as a result records what it read:
   * {@code [{table, url, etag, last_modified, size}]}.
   */
  JsonArray sources(Map<String, String> tables) {
    JsonArray sources = new JsonArray();
    tables.forEach((name, url) -> {
      CachedCopies.Entry entry = copies.get(url);
      if (entry != null) {
        sources.add(entry.source(name, url).toJson());
      }
    });
    return sources;
  }

  /** Of these tables, those whose file the cache holds now, pinned in {@code into}: nothing is fetched or revalidated. */
  Map<String, Path> held(Map<String, String> tables, PinnedFiles.Pins into) {
    Map<String, Path> files = new LinkedHashMap<>();
    tables.forEach((name, url) -> {
      CachedCopies.Entry entry = copies.get(url);
      if (entry != null) {
        into.hold(entry.file());
        files.put(name, entry.file());
      }
    });
    return files;
  }

  /** The columns of a file its copy does not hold, which a database shows as placeholders (none for a whole file). */
  BitSet unfetched(Path file) {
    return sparse.unfetched(file);
  }

  /**
   * Fetches into every table's pinned copy the columns {@code wanted} picks from its layout that it does not hold
   * yet. Fails, before moving a byte, when that takes a file's bytes for this query past
   * {@link Settings#maxQueryBytes}. Once {@code gaveUp} completes, a fetch no other query waits for is cancelled.
   */
  Future<Void> columns(Map<String, String> tables, Map<String, Path> files, Function<Layout, BitSet> wanted,
      SparseCopies.Budget budget, Future<?> gaveUp) {
    return sparse.columns(tables, files, wanted, budget, gaveUp);
  }

  /** Of these tables, those whose file is downloading now, with how far each has come. */
  Map<String, Downloads.Download> downloads(Map<String, String> tables) {
    return downloads.of(tables);
  }

  /** See {@link Revalidation#unconfirmed}. */
  Revalidation.Unconfirmed unconfirmed(Map<String, String> tables) {
    return revalidation.unconfirmed(tables);
  }

  private long heldBytes(CachedCopies.Entry entry) {
    return sparse.heldBytes(entry.file(), entry.size());
  }

  /** A file no query uses leaves the cache. */
  private void delete(Path file) {
    sparse.remove(file);
    Future<Void> deleted = vertx.fileSystem().delete(file.toString()).otherwiseEmpty();
    deleting.add(deleted);
    deleted.onComplete(done -> deleting.remove(deleted));
    onDropped.accept(file);
  }

  /**
   * Completes once the files being deleted now are gone. A query that failed for a full disk deletes what its fetch
   * wrote as it ends; its answer ("try again shortly") waits for that, so that trying again at once finds the space.
   */
  Future<Void> deletions() {
    return deleting.isEmpty() ? Future.succeededFuture() : Future.join(List.copyOf(deleting)).mapEmpty();
  }
}
