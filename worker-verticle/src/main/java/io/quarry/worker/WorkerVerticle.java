package io.quarry.worker;

import io.quarry.bus.Addresses;
import io.quarry.bus.Bus;
import io.quarry.bus.DataFormat;
import io.quarry.bus.Export;
import io.quarry.bus.Failure;
import io.quarry.bus.Keys;
import io.quarry.bus.PrivateFiles;
import io.quarry.bus.QuarryException;
import io.quarry.bus.QueryRequest;
import io.quarry.bus.QueryResult;
import io.quarry.bus.QueryStops;
import io.quarry.bus.RowsJson;
import io.quarry.bus.Sizes;
import io.quarry.bus.WorkerClient;
import io.quarry.bus.Operation;
import io.quarry.bus.WorkerOps;
import io.quarry.bus.WorkerReply;
import io.quarry.bus.net.OutboundHttp;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs read-only SQL over given tables in sandboxed DuckDB databases, reading Parquet files from a local
 * disk cache. DuckDB runs on a sized worker pool, never on the event loop; a bounded queue answers
 * "Server busy, try again shortly" beyond it.
 */
public class WorkerVerticle extends VerticleBase {

  private static final Logger log = LoggerFactory.getLogger(WorkerVerticle.class);

  private OutboundHttp http;
  private DuckInstances instances;
  private WorkerExecutor executor;
  private ParquetCache cache;
  private QueryRun.Services services;
  private final StopKeys stops = new StopKeys();
  private QueryEngine engine;
  private ExportFiles exports;
  private ExportQuota quota;
  private Admission admission;
  /** Null when deployed with a JSON config instead (the module's tests, the dataset benchmark). */
  private final WorkerSettings given;
  private WorkerSettings settings;

  public WorkerVerticle() {
    this(null);
  }

  /** A verticle of the worker role: {@link WorkerRole} or a pool deploys it. */
  public WorkerVerticle(WorkerSettings settings) {
    this.given = settings;
  }

  @Override
  public Future<?> start() {
    settings = given != null ? given : WorkerSettings.from(config());
    admission = new Admission(settings.threads() + settings.queueSize());
    executor = vertx.createSharedWorkerExecutor("quarry-duckdb-" + deploymentID(), settings.threads(), 1, TimeUnit.DAYS);
    instances = new DuckInstances(settings.duckdb());
    engine = new QueryEngine(instances, settings.home());
    http = new OutboundHttp(vertx, settings.policy(), 10_000, settings.originCaFile(), settings.fetchConnections());
    cache = new ParquetCache(vertx, http, settings.cache(), this::layout, this::convert, this::forget);
    RunWhileRevalidating revalidating = new RunWhileRevalidating(vertx, cache, settings.revalidateWaitMs());
    FetchProgress progress = new FetchProgress(vertx, cache, settings.progressIntervalMs());
    services = new QueryRun.Services(cache, revalidating, progress, this::execute, unused -> { });
    exports = new ExportFiles(vertx, settings.home().resolve("exports"));
    quota = new ExportQuota(vertx);
    return vertx.executeBlocking(this::ownHome, false)
        .compose(v -> cache.open())
        .compose(v -> exports.open())
        .compose(v -> executor.executeBlocking(this::openDatabases, false))
        .compose(this::warmUp)
        .compose(kept -> listenForStops()
            .compose(listening -> new Bus(vertx).serve(queries(settings),
                request -> onQuery(request).map(WorkerOps.Answer::new)).completion())
            .onSuccess(v -> log.info("Worker ready: {} threads, {} databases kept ({} each), cache in {}",
                settings.threads(), kept, Sizes.human(instances.idleBytes()), settings.home())));
  }

  /** The databases kept ready; DuckDB's library is loaded by then, and its unpacked copy can go. */
  private int openDatabases() throws java.sql.SQLException {
    int kept = instances.open();
    UnpackedLibrary.forget();
    return kept;
  }

  /** See {@link Warmup}; one that fails costs the first user the wait it would have saved, nothing more. */
  private Future<Integer> warmUp(int kept) {
    if (!settings.warmUp()) {
      return Future.succeededFuture(kept);
    }
    long started = System.nanoTime();
    return executor.executeBlocking(() -> Warmup.query(engine, instances, settings.home()), false)
        .compose(v -> Warmup.fetch(vertx, settings.home()))
        .onSuccess(v -> log.debug("Warmed up in {} ms", (System.nanoTime() - started) / 1_000_000))
        .otherwise(e -> {
          log.warn("Warm-up failed (the first queries will be slower): {}", e.toString());
          return null;
        })
        .map(kept);
  }

  /** The data directory (refused if another account could write it) and this worker's own in it, 0700. */
  private Void ownHome() throws IOException {
    PrivateFiles.dataDir(settings.home().getParent());
    PrivateFiles.directory(settings.home());
    return null;
  }

  /** Stops published anywhere in the cluster reach every worker: whichever runs a stopped query stops it. */
  private Future<Void> listenForStops() {
    return vertx.eventBus().<JsonObject>consumer(Addresses.QUERIES_STOP,
        message -> stops.stop(QueryStops.stopKeyOf(message.body()))).completion();
  }

  /** Queries come from this node's {@link io.quarry.worker.pool.WorkerPool} only, on an address of this verticle's own. */
  private static Operation<QueryRequest, WorkerOps.Answer> queries(WorkerSettings settings) {
    String id = settings.localWorkerId();
    if (id.isBlank()) {
      throw new IllegalArgumentException("worker: localWorkerId is required (the worker pool deploys this verticle)");
    }
    return WorkerOps.memberQueryRun(id);
  }

  private Future<Buffer> onQuery(QueryRequest request) {
    if (request.sql() == null || request.sql().isBlank()) {
      throw QuarryException.badRequest("Field 'sql' is required");
    }
    if (stops.stopped(request.stopKey())) {
      return Future.failedFuture(new QuarryException(Failure.CONFLICT, QueryStops.STOPPED));
    }
    if (!admission.tryEnter()) {
      return Future.failedFuture(new QuarryException(Failure.UNAVAILABLE, WorkerClient.BUSY));
    }
    long timeoutMs = settings.timeouts().limit(request.timeoutMs());
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    PinnedFiles.Pins pins = cache.pins();
    return reads(request)
        .compose(reads -> answer(request, reads, timeoutMs, deadline, pins, true))
        .eventually(() -> {
          pins.release();
          admission.leave();
          return cache.deletions();
        });
  }

  /** A statement that passed the check before skips the trip to a worker thread. */
  private Future<Reads> reads(QueryRequest request) {
    Reads known = engine.checked(request.sql(), request.tables().keySet());
    return known != null ? Future.succeededFuture(known)
        : executor.executeBlocking(() -> engine.check(request.sql(), request.tables().keySet()), false);
  }

  /** A file that changed on its server while its columns were fetched: the query runs once more, on the new version. */
  private Future<Buffer> answer(QueryRequest request, Reads reads, long timeoutMs, long deadline,
      PinnedFiles.Pins pins, boolean again) {
    QueryRun run = new QueryRun(servicesFor(request), request, reads, timeoutMs, deadline, pins);
    Runnable done = stops.whileRunning(request.stopKey(), run::stop);
    return run.answer().onComplete(ended -> done.run()).recover(e -> {
      if (!(e instanceof RangeFetch.Changed changed)) {
        return Future.failedFuture(e);
      }
      return again ? answer(request, reads, timeoutMs, deadline, pins, false)
          : Future.failedFuture(QueryFailure.network(changed.url, changed.getMessage()));
    });
  }

  /** What answers the request: its statement's rows, or instead its table's statistics, its columns or an export. */
  private QueryRun.Services servicesFor(QueryRequest request) {
    if (!request.statistics().isEmpty()) {
      return services.answeredBy((bindings, read, sql, limit, until, abort) ->
          statistics(bindings, request.statistics(), limit, until, abort));
    }
    if (!request.columnsOf().isEmpty()) {
      return services.answeredBy((bindings, read, sql, limit, until, abort) ->
          columnsOf(bindings, request.columnsOf()));
    }
    if (request.export() != null) {
      return new QueryRun.Services(services.cache(), services.revalidating(), services.progress(),
          (bindings, read, sql, limit, until, abort) -> export(request.export(), request.userId(), bindings, read, sql,
              limit, until, abort), this::unusedExport);
    }
    return services;
  }

  /** The reply is encoded on the worker thread too, where the rows were just written. */
  private Future<Buffer> execute(Map<String, Placeholders.Bound> bindings, Reads reads, String sql, long timeoutMs,
      long deadline, Abort abort) {
    return executor.executeBlocking(() -> WorkerReply.encode(engine.run(bindings, reads, sql, timeoutMs,
        alarm(deadline, abort)), settings.servedBy()), false);
  }

  /** A table's footer statistics instead of the statement's rows ({@link QueryRequest#statistics}). */
  private Future<Buffer> statistics(Map<String, Placeholders.Bound> bindings, String table, long timeoutMs,
      long deadline, Abort abort) {
    if (!bindings.containsKey(table)) {
      return Future.failedFuture(QueryFailure.validation("No table " + table + " to read the statistics of"));
    }
    return executor.executeBlocking(() -> WorkerReply.encode(engine.statistics(bindings, table, timeoutMs,
        alarm(deadline, abort)), settings.servedBy()), false);
  }

  /** A table's columns instead of the statement's rows ({@link QueryRequest#columnsOf}). */
  private Future<Buffer> columnsOf(Map<String, Placeholders.Bound> bindings, String table) {
    if (!bindings.containsKey(table)) {
      return Future.failedFuture(QueryFailure.validation("No table " + table + " to read the columns of"));
    }
    return executor.executeBlocking(() -> WorkerReply.encode(engine.columnsOf(bindings, table), settings.servedBy()),
        false);
  }

  /**
   * The whole result written to a file of this worker's, served from an address of its own: the reply says where, and
   * how many rows and bytes it holds, instead of carrying rows. The file counts toward its user's
   * {@link ExportQuota} from its first byte until it is deleted; past it, it is stopped and deleted.
   */
  private Future<Buffer> export(Export export, String userId, Map<String, Placeholders.Bound> bindings, Reads reads,
      String sql, long timeoutMs, long deadline, Abort abort) {
    Path output = exports.newFile(export.format());
    ExportQuota.Charge charge = quota.charge(userId, output, export.maxBytes(), abort::fire);
    long started = System.nanoTime();
    return executor.executeBlocking(() -> engine.export(bindings, reads, sql, export, output, timeoutMs,
            alarm(deadline, abort)), false)
        // The engine's own verdict on a finished file (its rows, then its bytes) stands; the quota's is for a file it
        // stopped, or one that fits the limits but not what its user already holds.
        .recover(e -> Future.failedFuture(
            charge.over() && Failure.classify(e) != Failure.TOO_LARGE ? charge.failure() : e))
        .compose(written -> charge.written(written.bytes()).compose(v -> exports.serve(output, charge::release))
            .map(address -> WorkerReply.with(WorkerReply.encode(
                new QueryResult(null, null, sql, new JsonArray(), RowsJson.EMPTY, written.rows(), false,
                    (System.nanoTime() - started) / 1_000_000, null, null), settings.servedBy()), Keys.EXPORT,
                new Export.File(address, export.format(), written.rows(), written.bytes()).toJson())))
        .recover(e -> {
          // Refused or failed, its file is gone before the caller hears so.
          charge.release();
          return vertx.fileSystem().delete(output.toString()).otherwiseEmpty()
              .transform(deleted -> Future.<Buffer>failedFuture(e));
        });
  }

  /**
   * An export written from copies that turned out stale (its statement runs again on the new version): its file goes
   * now, as a download's would when done, not when its address idles, and its user's quota gets its room back.
   */
  private void unusedExport(Buffer reply) {
    JsonObject file = WorkerReply.decode(reply).export();
    if (file != null) {
      vertx.eventBus().request(Export.File.fromJson(file).address(), Export.done());
    }
  }

  /** A query's limit, as what is left of it by {@code deadline}, or its stop ({@code abort}), whichever comes first. */
  private QueryEngine.Alarm alarm(long deadline, Abort abort) {
    long remainingMs = Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
    return (delay, action) -> {
      long timer = vertx.setTimer(Math.min(delay, remainingMs), id -> action.run());
      Runnable disarm = abort.arm(action);
      return () -> {
        vertx.cancelTimer(timer);
        disarm.run();
      };
    };
  }

  /** Reads a new copy's layout from its footer (DuckDB blocks). */
  private Future<Layout> layout(Path file, long footerAt) {
    return executor.executeBlocking(() -> instances.layout(file, footerAt), false);
  }

  /** Reads a downloaded text file into the Parquet file its copy will be (DuckDB blocks). */
  private Future<Void> convert(Path source, DataFormat format, Path target) {
    return executor.executeBlocking(() -> {
      instances.convert(source, format, target);
      return null;
    }, false);
  }

  /** A file left the cache: databases reading it are retired (closing DuckDB can block, so not here). */
  private void forget(Path file) {
    executor.executeBlocking(() -> {
      engine.forget(file);
      return null;
    }, false);
  }

  /** Databases made so far (tests compare how many queries needed a new one). */
  int databasesMade() {
    return instances.created();
  }

  @Override
  public Future<?> stop() {
    return executor.executeBlocking(() -> {
      instances.close();
      return null;
    }).eventually(() -> http.close()).eventually(() -> executor.close());
  }
}
