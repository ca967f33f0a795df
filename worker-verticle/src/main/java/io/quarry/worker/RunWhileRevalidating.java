package io.quarry.worker;

import io.quarry.bus.WorkerReply;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Saves the round trip to each file's server from the answer's path: files already in the cache are
 * queried while their revalidation is in flight. It stays correct because an answer is only returned once
 * the revalidation says those files are current; a changed file stops that run and the query runs again on
 * the new version, and a failed revalidation fails the query. A server slower than {@code waitMs} does
 * not hold the answer longer: it is given from the cached copies, with a note that says so and when they
 * were last confirmed. Used on the worker verticle's event loop.
 */
final class RunWhileRevalidating {

  /** Runs the statement over these files; firing {@code abort} stops it. */
  interface Execution {
    Future<Buffer> over(Map<String, Path> files, Abort abort);
  }

  private final Vertx vertx;
  private final ParquetCache cache;
  private final long waitMs;

  RunWhileRevalidating(Vertx vertx, ParquetCache cache, long waitMs) {
    this.vertx = vertx;
    this.cache = cache;
    this.waitMs = waitMs;
  }

  /**
   * {@code current}: every table's file revalidated, or fetched when new or changed, with the columns
   * {@code reads} needs; the cached copies are used early only when they hold those columns. {@code unused}: told of
   * an early answer that was made but will not be given (an export's file is then deleted at once).
   */
  Future<Buffer> answer(Map<String, String> tables, Reads reads, PinnedFiles.Pins pins,
      Supplier<Future<Map<String, Path>>> current, Execution execution, Consumer<Buffer> unused) {
    Optional<Map<String, Path>> cached = cache.cached(tables, reads, pins);
    if (cached.isEmpty()) {
      return current.get().compose(files -> execution.over(files, new Abort()));
    }
    Abort stale = new Abort();
    Future<Buffer> early = execution.over(cached.get(), stale);
    Future<Map<String, Path>> revalidated = current.get();
    return revalidationOrNote(tables, revalidated, early).compose(note -> {
      if (note.isPresent()) {
        return early.map(reply -> WorkerReply.noted(reply, note.get()));
      }
      boolean unchanged = revalidated.succeeded() && revalidated.result().equals(cached.get());
      if (!unchanged) {
        stale.fire();
      }
      return early.transform(ran -> {
        if (unchanged) {
          return early;
        }
        if (ran.succeeded()) {
          unused.accept(ran.result());
        }
        return revalidated.failed() ? Future.failedFuture(revalidated.cause())
            : execution.over(revalidated.result(), new Abort());
      });
    });
  }

  /**
   * Empty once the revalidation has ended; or, when it is still under way past {@code waitMs} and the
   * answer from the cached copies is ready, the note that answer carries.
   */
  private Future<Optional<String>> revalidationOrNote(Map<String, String> tables, Future<?> revalidated,
      Future<?> early) {
    Promise<Optional<String>> decided = Promise.promise();
    revalidated.onComplete(r -> decided.tryComplete(Optional.empty()));
    long timer = vertx.setTimer(waitMs, id -> early.onComplete(r ->
        decided.tryComplete(Optional.of(CachedCopyNote.of(cache.unconfirmed(tables), waitMs)))));
    return decided.future().onComplete(d -> vertx.cancelTimer(timer));
  }
}
