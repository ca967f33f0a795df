package io.quarry.worker;

import io.quarry.bus.DataFormat;
import io.quarry.bus.FileEnd;
import io.quarry.bus.Sha256;
import io.quarry.bus.QuarryException;
import io.quarry.bus.net.OutboundHttp.Exchange;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * A file's new version, as its revalidation's answer begins it, into a new copy: from a server that honours
 * {@code Range}, its footer now and its columns when queries need them ({@link SparseCopies}); from one that does not,
 * the whole file. Lives on the worker verticle's event loop.
 */
final class NewCopies {

  private final Vertx vertx;
  private final RangeFetch ranges;
  private final ParquetCache.Settings settings;
  private final BiFunction<Path, Long, Future<Layout>> layouts;
  private final Downloads downloads;
  private final SparseCopies sparse;
  private final CachedCopies copies;
  private final CacheFailures failures;
  private final TextCopies text;
  private long versions;

  /** @param layouts reads a sparse copy's layout from its footer (off the event loop) */
  NewCopies(Vertx vertx, RangeFetch ranges, ParquetCache.Settings settings,
      BiFunction<Path, Long, Future<Layout>> layouts, Downloads downloads, SparseCopies sparse, CachedCopies copies,
      CacheFailures failures, TextCopies text) {
    this.vertx = vertx;
    this.ranges = ranges;
    this.settings = settings;
    this.layouts = layouts;
    this.downloads = downloads;
    this.sparse = sparse;
    this.copies = copies;
    this.failures = failures;
    this.text = text;
  }

  /**
   * {@code exchange} answered 200 or 206 with a version the cache does not hold; its body is not read yet. A text
   * {@code format}'s answer is a 200, its whole file.
   */
  Future<Path> fetch(String url, URI uri, Exchange exchange, TailResponse tail, DataFormat format) {
    if (tail.size() > settings.maxFileSize()) {
      exchange.discard();
      return Future.failedFuture(failures.tooLarge(url));
    }
    return exchange.response().statusCode() == 206 && format == DataFormat.PARQUET
        ? sparseCopy(url, uri, exchange, tail) : whole(url, exchange, tail.size(), format);
  }

  /**
   * A new copy begun from the last bytes adding the file just read ({@link FileEnd}), without asking its origin: the
   * engine's first look at a file far away costs no round trip.
   */
  Future<Path> fromEnd(String url, URI uri, FileEnd end) {
    TailResponse tail = new TailResponse(end.etag(), end.lastModified(), end.size(), end.from(), end.size(),
        end.cacheControl());
    if (tail.size() > settings.maxFileSize()) {
      return Future.failedFuture(failures.tooLarge(url));
    }
    return sparseCopy(url, uri, tail, (target, version) -> Footer.place(vertx, Buffer.buffer(end.bytes()), tail,
        target, settings.maxFooterBytes(), settings.wholeFileBelowBytes(), ranges, version));
  }

  private Future<Path> sparseCopy(String url, URI uri, Exchange exchange, TailResponse tail) {
    return sparseCopy(url, uri, tail, (target, version) -> Footer.fetch(vertx, exchange, tail, target,
        settings.maxFooterBytes(), settings.wholeFileBelowBytes(), ranges, version));
  }

  /** {@code begin}: writes the file's last bytes into the new copy, fetching what they lack of the footer. */
  private Future<Path> sparseCopy(String url, URI uri, TailResponse tail,
      BiFunction<Path, RangeFetch.Version, Future<Footer>> begin) {
    Path target = newFile(url);
    RangeFetch.Version version = new RangeFetch.Version(uri, tail.etag(), tail.lastModified(), tail.size());
    return begin.apply(target, version)
        .compose(footer -> footer.whole()
            ? install(url, tail, target, null)
            : layouts.apply(target, footer.at()).recover(e -> Future.failedFuture(
                e instanceof java.sql.SQLException || e instanceof java.io.IOException ? unreadable(url, target, e) : e))
                .compose(layout ->
                install(url, tail, target, new SparseCopy(layout, version, tail.size() - footer.heldFrom()))))
        .onFailure(e -> vertx.fileSystem().delete(target.toString()).otherwiseEmpty());
  }

  /** The whole file is also every query's read of it; a text file is read into Parquet first. */
  private Future<Path> whole(String url, Exchange exchange, long length, DataFormat format) {
    if (length > settings.maxQueryBytes()) {
      exchange.discard();
      return Future.failedFuture(failures.overQueryLimit(url, length, length));
    }
    Downloads.Download progress = downloads.started(url, length);
    Path part = settings.dir().resolve("download-" + (++versions) + ".part");
    long limit = Math.min(settings.maxFileSize(), settings.maxQueryBytes());
    return FullDownload.to(vertx, part, exchange, progress, limit, () -> limit == settings.maxFileSize()
            ? failures.tooLarge(url) : failures.overQueryLimit(url, progress.received, -1))
        .eventually(() -> {
          downloads.finished(url, progress);
          return Future.succeededFuture();
        })
        .compose(size -> {
          Path target = newFile(url);
          Future<Path> placed = format == DataFormat.PARQUET
              ? vertx.fileSystem().move(part.toString(), target.toString()).map(target)
              : text.read(url, part, format, target);
          return placed.compose(v -> install(url, TailResponse.of(exchange.response()).withSize(size), target, null));
        });
  }

  /** A footer DuckDB cannot read: the queries that read this file fail with DuckDB's reason, in words. */
  private QuarryException unreadable(String url, Path copy, Throwable e) {
    String duckdb = e.getMessage() == null ? e.toString() : e.getMessage();
    return QueryFailure.unreadable("the file at " + url, EngineText.reason(duckdb.replace(copy.toString(), url),
        Map.of(), settings.dir()));
  }

  private Path newFile(String url) {
    return settings.dir().resolve(Sha256.hex(url).substring(0, 32) + "-" + (++versions) + ".parquet");
  }

  /** {@code copy} null for a whole file. */
  private Future<Path> install(String url, TailResponse version, Path target, SparseCopy copy) {
    if (copy != null) {
      sparse.add(target, copy);
    }
    copies.install(url, target, version);
    return Future.succeededFuture(target);
  }

}
