package io.quarry.worker;

import io.quarry.bus.DataFormat;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A CSV or JSON file's copy is the Parquet file DuckDB's reader makes of it, once, as it is fetched: every query then
 * reads columns, as it does any Parquet copy, instead of parsing the text again, and a row the reader refuses refuses
 * the file at its first read (when it is added), with the line DuckDB names. Lives on the worker verticle's event loop.
 */
final class TextCopies {

  /** Reads {@code source} as {@code format} into a new Parquet file {@code target} (DuckDB blocks: off the loop). */
  interface Converter {
    Future<Void> convert(Path source, DataFormat format, Path target);
  }

  private final Vertx vertx;
  private final Converter converter;

  TextCopies(Vertx vertx, Converter converter) {
    this.vertx = vertx;
    this.converter = converter;
  }

  /** The downloaded {@code part} read into {@code target}; {@code part} goes either way, {@code target} on failure. */
  Future<Path> read(String url, Path part, DataFormat format, Path target) {
    return converter.convert(part, format, target)
        .recover(e -> Future.failedFuture(e instanceof SQLException ? refused(url, format, part, e) : e))
        .onFailure(e -> vertx.fileSystem().delete(target.toString()).otherwiseEmpty())
        .eventually(() -> vertx.fileSystem().delete(part.toString()).otherwiseEmpty())
        .map(target);
  }

  /**
   * DuckDB's reason, on one line and without its advice on reader options a user cannot set here: "CSV Error on Line:
   * 30002; Original Line: x,zz,3; Expected Number of Columns: 2 Found: 3".
   */
  static RuntimeException refused(String url, DataFormat format, Path part, Throwable e) {
    String duckdb = e.getMessage() == null ? e.toString() : e.getMessage();
    String reason = duckdb.lines().takeWhile(line -> !line.startsWith("Possible fixes"))
        .map(String::strip).filter(line -> !line.isEmpty())
        .map(line -> line.replace(part.toString(), url).replaceFirst("^Invalid Input Error: ", ""))
        .collect(Collectors.joining("; "));
    // As any engine text: no path of the worker's own folder (its cache, where the part is, and its spill files beside
    // it) reaches the user.
    return QueryFailure.unreadable("the " + format.label() + " file at " + url,
        EngineText.clean(reason, Map.of(), part.getParent().getParent()));
  }
}
