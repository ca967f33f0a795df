package io.quarry.worker;

import io.quarry.bus.Addresses;
import io.quarry.bus.Bus;
import io.quarry.bus.Failure;
import io.quarry.bus.QueryRequest;
import io.quarry.bus.QuarryException;
import io.quarry.bus.Sizes;
import io.quarry.bus.WorkerClient;
import io.quarry.bus.WorkerReply;
import io.quarry.bus.net.AddressPolicy;
import io.quarry.bus.net.OutboundHttp;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
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
  private RunWhileRevalidating revalidating;
  private FetchProgress progress;
  private QueryEngine engine;
  private Admission admission;
  private WorkerSettings settings;

  @Override
  public Future<?> start() {
    settings = WorkerSettings.from(config());
    admission = new Admission(settings.threads() + settings.queueSize());
    executor = vertx.createSharedWorkerExecutor("quarry-duckdb-" + deploymentID(), settings.threads(), 1, TimeUnit.DAYS);
    instances = new DuckInstances(settings.duckdb());
    engine = new QueryEngine(instances);
    http = new OutboundHttp(vertx, settings.policy(), 10_000);
    cache = new ParquetCache(vertx, http, settings.cache(), this::forget);
    revalidating = new RunWhileRevalidating(vertx, cache, settings.revalidateWaitMs());
    progress = new FetchProgress(vertx, cache, settings.progressIntervalMs());
    return cache.open()
        .compose(v -> executor.executeBlocking(instances::open, false))
        .compose(kept -> Bus.serve(vertx.eventBus(), address(settings), this::onQuery).completion()
            .onSuccess(v -> log.info("Worker ready: {} threads, {} databases kept ({} each), cache in {}",
                settings.threads(), kept, Sizes.human(instances.idleBytes()), settings.home())));
  }

  /** Queries come from this node's {@link io.quarry.worker.pool.WorkerPool} only, on an address of this verticle's own. */
  private static String address(WorkerSettings settings) {
    String id = settings.localWorkerId();
    if (id.isBlank()) {
      throw new IllegalArgumentException("worker: localWorkerId is required (the worker pool deploys this verticle)");
    }
    return Addresses.localWorker(id);
  }

  private Future<Buffer> onQuery(JsonObject body) {
    QueryRequest request = QueryRequest.fromJson(body);
    if (request.sql() == null || request.sql().isBlank()) {
      throw QuarryException.badRequest("Field 'sql' is required");
    }
    if (!admission.tryEnter()) {
      return Future.failedFuture(new QuarryException(Failure.UNAVAILABLE, WorkerClient.BUSY));
    }
    long timeoutMs = settings.timeouts().limit(request.timeoutMs());
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    ParquetCache.Pins pins = cache.pins();
    return tablesRead(request)
        .compose(read -> run(request, read, timeoutMs, deadline, pins))
        .eventually(() -> {
          pins.release();
          admission.leave();
          return Future.succeededFuture();
        });
  }

  /** A statement that passed the check before skips the trip to a worker thread. */
  private Future<Set<String>> tablesRead(QueryRequest request) {
    Set<String> known = engine.checked(request.sql(), request.tables().keySet());
    return known != null ? Future.succeededFuture(known)
        : executor.executeBlocking(() -> engine.check(request.sql(), request.tables().keySet()), false);
  }

  /** Only the tables a statement reads are fetched (and revalidated). */
  private Future<Buffer> run(QueryRequest request, Set<String> read, long timeoutMs, long deadline,
      ParquetCache.Pins pins) {
    Map<String, String> tables = only(request.tables(), read);
    return revalidating.answer(tables, pins, () -> current(request, tables, timeoutMs, pins),
        (files, abort) -> execute(alsoCached(files, request.tables(), pins), request.sql(), timeoutMs, deadline,
            abort));
  }

  /**
   * The files a statement reads, and the copies the cache holds of its conversation's other tables: bound
   * together, a conversation's queries share one database whichever of its tables each reads. Those copies are
   * not read by this statement, so they need not be current; the one that reads them revalidates them.
   */
  private Map<String, Path> alsoCached(Map<String, Path> read, Map<String, String> all, ParquetCache.Pins pins) {
    Map<String, String> others = new LinkedHashMap<>(all);
    others.keySet().removeAll(read.keySet());
    Map<String, Path> bound = new LinkedHashMap<>(read);
    bound.putAll(cache.held(others, pins));
    return bound;
  }

  /** The current version of every table's file: revalidated, or downloaded when new or changed. */
  private Future<Map<String, Path>> current(QueryRequest request, Map<String, String> tables, long timeoutMs,
      ParquetCache.Pins pins) {
    Future<Map<String, Path>> fetched = cache.fetchAll(tables, pins)
        .timeout(timeoutMs, TimeUnit.MILLISECONDS)
        .recover(e -> Future.failedFuture(e instanceof TimeoutException
            ? QueryFailure.timeout(timeoutMs, " while the data was still downloading") : e));
    // Followed until the query stops waiting, not until the download ends: one that outlives a timed-out query
    // (it goes on into the cache) must not keep telling the browser about a query that has already failed.
    progress.follow(request, tables, fetched);
    return fetched;
  }

  private static Map<String, String> only(Map<String, String> tables, Set<String> read) {
    Map<String, String> subset = new LinkedHashMap<>();
    tables.forEach((name, url) -> {
      if (read.contains(name)) {
        subset.put(name, url);
      }
    });
    return subset;
  }

  /** The reply is encoded on the worker thread too, where the rows were just written. */
  private Future<Buffer> execute(Map<String, Path> files, String sql, long timeoutMs, long deadline, Abort abort) {
    long remainingMs = Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
    return executor.executeBlocking(() -> WorkerReply.encode(engine.run(files, sql, timeoutMs, (delay, action) -> {
      long timer = vertx.setTimer(Math.min(delay, remainingMs), id -> action.run());
      Runnable disarm = abort.arm(action);
      return () -> {
        vertx.cancelTimer(timer);
        disarm.run();
      };
    }), settings.servedBy()), false);
  }

  /** A file left the cache: databases reading it are retired (closing DuckDB can block, so not here). */
  private void forget(Path file) {
    executor.executeBlocking(() -> {
      instances.forget(file);
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
