package io.quarry.worker;

import io.quarry.bus.Failure;
import io.quarry.bus.QueryRequest;
import io.quarry.bus.WorkerReply;
import io.quarry.bus.QueryStops;
import io.quarry.bus.QuarryException;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * One query's way from its checked statement to its answer, on the worker verticle's event loop: the current
 * version of every file it reads, with the columns it can touch; then DuckDB, on a worker thread. A column it
 * touches that was not fetched (a placeholder fired) is fetched and the statement runs again: the named column
 * the first {@value #SINGLE_COLUMN_ROUNDS} times, then the whole table.
 */
final class QueryRun {

  static final int SINGLE_COLUMN_ROUNDS = 3;

  /**
   * Runs a statement (which reads {@code reads}) over these bindings on a worker thread, by {@code deadline}, until
   * {@code abort} fires.
   */
  interface Execution {
    Future<Buffer> run(Map<String, Placeholders.Bound> bindings, Reads reads, String sql, long timeoutMs,
        long deadline, Abort abort);
  }

  /**
   * What every query uses: the verticle's own. {@code unused}: what to do with an answer made but not given (the
   * statement ran again on a file that changed meanwhile, or the query was stopped as it ended).
   */
  record Services(ParquetCache cache, RunWhileRevalidating revalidating, FetchProgress progress,
      Execution execution, Consumer<Buffer> unused) {

    /** The same, answered by {@code other}. */
    Services answeredBy(Execution other) {
      return new Services(cache, revalidating, progress, other, unused);
    }
  }

  private final Services services;
  private final QueryRequest request;
  private final Reads reads;
  private final Map<String, String> tables;
  private final long timeoutMs;
  private final long deadline;
  private final PinnedFiles.Pins pins;
  private final SparseCopies.Budget budget = new SparseCopies.Budget();
  /** Completed when the query ends: a fetch nobody else waits for is then cancelled. */
  private final Promise<Void> ended = Promise.promise();
  private final Promise<Buffer> stopped = Promise.promise();
  /** The runs of the statement so far: stopping the query stops them too. */
  private final List<Abort> runs = new ArrayList<>();

  QueryRun(Services services, QueryRequest request, Reads reads, long timeoutMs, long deadline,
      PinnedFiles.Pins pins) {
    this.services = services;
    this.request = request;
    this.reads = reads;
    this.tables = only(request.tables(), reads);
    this.timeoutMs = timeoutMs;
    this.deadline = deadline;
    this.pins = pins;
  }

  Future<Buffer> answer() {
    Promise<Buffer> answer = Promise.promise();
    services.revalidating().answer(tables, reads, pins, this::current, (files, abort) -> {
      runs.add(abort);
      return run(files, abort, 0);
    }, services.unused()).map(reply -> WorkerReply.with(reply, "sources", services.cache().sources(tables)))
        .onComplete(outcome -> deliver(answer, outcome));
    stopped.future().onFailure(answer::tryFail);
    return answer.future().onComplete(done -> ended.tryComplete());
  }

  /** Its caller no longer wants it: it fails now, its statement is cancelled, and so are fetches only it waits for. */
  void stop() {
    stopped.tryFail(new QuarryException(Failure.CONFLICT, QueryStops.STOPPED));
    runs.forEach(Abort::fire);
  }

  /** The current version of every table's file, revalidated (or fetched), holding the columns the query reads. */
  private Future<Map<String, Path>> current() {
    return waitingForData(services.cache().fetchAll(tables, pins, request::recordedOf, request::endOf,
        request::formatOf).compose(files ->
        services.cache().columns(tables, files, layout -> reads.columnsOf(layout.columns()), budget, ended.future())
            .map(files)));
  }

  private Future<Buffer> run(Map<String, Path> files, Abort abort, int round) {
    Map<String, Placeholders.Bound> bindings = new LinkedHashMap<>();
    alsoCached(files).forEach((name, file) ->
        bindings.put(name, new Placeholders.Bound(file, services.cache().unfetched(file), request.tables().get(name))));
    return services.execution().run(bindings, reads, request.sql(), timeoutMs, deadline, abort).recover(e -> {
      if (!(e instanceof Placeholders.Unfetched unfetched) || round > SINGLE_COLUMN_ROUNDS + tables.size()) {
        return Future.failedFuture(e);
      }
      String table = unfetched.missing.table();
      Function<Layout, BitSet> wanted = round < SINGLE_COLUMN_ROUNDS ? layout -> only(unfetched.missing.column())
          : layout -> all(layout.columns().size());
      Path file = bindings.get(table).file();
      return waitingForData(services.cache().columns(Map.of(table, request.tables().get(table)), Map.of(table, file),
              wanted, budget, ended.future()))
          .compose(fetched -> run(files, abort, round + 1));
    });
  }

  /**
   * The files a statement reads, and the copies the cache holds of its conversation's other tables: bound
   * together, a conversation's queries share one database whichever of its tables each reads. Those copies are
   * not read by this statement, so they need not be current; the one that reads them revalidates them.
   */
  private Map<String, Path> alsoCached(Map<String, Path> read) {
    Map<String, String> others = new LinkedHashMap<>(request.tables());
    others.keySet().removeAll(read.keySet());
    Map<String, Path> bound = new LinkedHashMap<>(read);
    bound.putAll(services.cache().held(others, pins));
    return bound;
  }

  /**
   * Bounded by what is left of the query's time. Progress is followed until the query stops waiting, not until
   * the fetch ends: one that outlives a timed-out query must not keep telling the browser about a query that has
   * already failed.
   */
  private <T> Future<T> waitingForData(Future<T> fetching) {
    long leftMs = Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
    Future<T> waited = fetching.timeout(leftMs, TimeUnit.MILLISECONDS)
        .recover(e -> Future.failedFuture(e instanceof TimeoutException
            ? QueryFailure.timeout(timeoutMs, " while the data was still downloading") : e));
    services.progress().follow(request, tables, waited);
    return waited;
  }

  /** An answer made after the query was stopped is nobody's: it goes the way of one made on stale copies. */
  private void deliver(Promise<Buffer> answer, io.vertx.core.AsyncResult<Buffer> outcome) {
    if (outcome.failed()) {
      answer.tryFail(outcome.cause());
    } else if (!answer.tryComplete(outcome.result())) {
      services.unused().accept(outcome.result());
    }
  }

  private static Map<String, String> only(Map<String, String> tables, Reads reads) {
    Map<String, String> subset = new LinkedHashMap<>();
    tables.forEach((name, url) -> {
      if (reads.tables().contains(name)) {
        subset.put(name, url);
      }
    });
    return subset;
  }

  private static BitSet only(int column) {
    BitSet one = new BitSet();
    one.set(column);
    return one;
  }

  private static BitSet all(int columns) {
    BitSet every = new BitSet();
    every.set(0, columns);
    return every;
  }
}
