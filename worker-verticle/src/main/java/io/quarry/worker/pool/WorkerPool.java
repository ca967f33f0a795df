package io.quarry.worker.pool;

import io.quarry.bus.Addresses;
import io.quarry.bus.Bus;
import io.quarry.bus.Failure;
import io.quarry.bus.LocalWorker;
import io.quarry.bus.LocalWorkerStatus;
import io.quarry.bus.PrivateFiles;
import io.quarry.bus.QuarryException;
import io.quarry.bus.QueryRequest;
import io.quarry.bus.WorkerOps;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The one owner of {@code worker.query.run} on a node, whatever its shape. A node that also serves HTTP,
 * runs LLM turns or owns SQLite must not run DuckDB in its own process, so its pool starts worker processes
 * from the same jar, joined to this node over the clustered event bus, restarts a process that dies and tells
 * that process's callers why. Processes start when queries need them — the first query, or every running one
 * busy — up to {@code localWorkers.count}, and stop again after {@code localWorkers.idleStopMs} without a query,
 * but for {@code localWorkers.keepWarm} of them, started with the node: a node is ready without them. A node that
 * runs DuckDB itself (worker-only) has a pool of one: the worker verticle of its own process. Either way
 * {@link Placement} puts each query on a member, or holds it until one has room.
 */
public class WorkerPool extends VerticleBase {

  private final WorkerPoolSettings pool;
  /** Null for a pool of one in this process. */
  private final WorkerPoolSettings.Processes processes;
  private final LocalWorkersConfig settings;
  private final List<Member> members = new ArrayList<>();
  private Placement placement;
  private PoolMetrics metrics;
  private StartDeadline deadline;
  private long idleTimer = -1;
  /** The member of a pool of one; null for a pool of processes. */
  private InProcessWorker self;

  private WorkerPool(WorkerPoolSettings pool) {
    this.pool = pool;
    this.processes = pool.processes();
    this.settings = pool.members();
  }

  /** The pool of a node that supervises worker processes ({@code settings.processes()} says how they start). */
  public static WorkerPool ofProcesses(WorkerPoolSettings settings) {
    if (settings.processes() == null) {
      throw new IllegalArgumentException("A pool of worker processes needs to know how they start");
    }
    return new WorkerPool(settings);
  }

  /** The pool of one of a node that runs DuckDB itself. */
  public static WorkerPool inProcess(WorkerPoolSettings settings) {
    return new WorkerPool(new WorkerPoolSettings(settings.node(), settings.worker(), settings.members().withCount(1),
        null));
  }

  @Override
  public Future<?> start() {
    // Twice its threads: while one query's result travels back, the next is already on the member.
    placement = new Placement(vertx, members, 2 * pool.worker().threads(), settings.queueSize(),
        settings.startTimeoutMs(), this::grow, Placement.KEEP_HOME_MS);
    metrics = new PoolMetrics(placement::waiting, () -> members.stream().mapToInt(Member::load).sum());
    String supervisor = pool.node().id();
    deadline = new StartDeadline(vertx, settings.startTimeoutMs(), System::currentTimeMillis);
    self = processes == null ? new InProcessWorker(vertx, pool.worker(), this::changed) : null;
    Future<List<Member>> created = processes == null ? Future.succeededFuture(List.of(self))
        : vertx.executeBlocking(this::prepare, false).map(prepared -> {
          // Made while the node deploys its other roles and becomes ready: the first process waits for it; the node
          // does not.
          vertx.executeBlocking(() -> {
            prepared.command().prepare();
            return null;
          }, false);
          return processes(supervisor, prepared);
        });
    Future<?> started = created
        .compose(list -> {
          members.addAll(list);
          return listen(supervisor);
        })
        .onSuccess(v -> begin());
    // Warm processes start while the node deploys its other roles, which do not wait for them.
    return processes == null ? started.compose(v -> ready()) : started;
  }

  private void begin() {
    deadline.started();
    warm().forEach(Member::start);
    retireWhenIdle();
  }

  /** The members started with the pool: all of a pool of one, {@code keepWarm} processes. */
  private List<Member> warm() {
    return processes == null ? members : members.subList(0, settings.keepWarm());
  }

  /** Starts one more process when queries need it: none is running, or every ready one is busy. One at a time. */
  private void grow() {
    if (members.stream().anyMatch(Member::isStarting)) {
      return;
    }
    boolean busy = members.stream().filter(Member::isReady).allMatch(m -> m.load() >= pool.worker().threads());
    members.stream().filter(Member::isIdle).findFirst().filter(idle -> busy).ifPresent(Member::start);
  }

  /** Every so often, processes beyond the warm ones that have run nothing for {@code idleStopMs} stop. */
  private void retireWhenIdle() {
    if (processes == null || settings.idleStopMs() == 0) {
      return;
    }
    long every = Math.max(100, Math.min(settings.idleStopMs() / 4, 60_000));
    idleTimer = vertx.setPeriodic(every, every, t -> retireIdle());
  }

  /** The last started go first, so that the first slots' caches stay warm. */
  private void retireIdle() {
    long now = System.currentTimeMillis();
    long running = members.stream().filter(m -> !m.isIdle()).count();
    for (int i = members.size() - 1; i >= 0 && running > settings.keepWarm() && placement.waiting() == 0; i--) {
      if (members.get(i).idleMs(now) >= settings.idleStopMs()) {
        members.get(i).retire();
        running--;
      }
    }
  }

  /**
   * What the processes need: their configuration files, and their command (whose class path, class archive and
   * temporary files are made apart: see {@link WorkerCommand#prepare}).
   */
  private record Prepared(List<Path> configFiles, WorkerCommand command) {
  }

  /** Their files go in the {@code workers} directory of the data directory ({@code worker.dataDir}). */
  private Prepared prepare() throws IOException {
    Path home = pool.worker().home().resolveSibling("workers");
    List<Path> files = writeConfigurations(home, processes.configuration(), settings.count(), settings.keepWarm());
    Path archives = settings.classArchiveDir().isBlank() ? home : Path.of(settings.classArchiveDir()).toAbsolutePath();
    WorkerCommand command = new WorkerCommand(settings, processes.mainClass(), archives, home, vertx.fileSystem());
    return new Prepared(files, command);
  }

  private List<Member> processes(String supervisor, Prepared prepared) {
    List<Member> created = new ArrayList<>();
    for (int slot = 1; slot <= settings.count(); slot++) {
      Path file = prepared.configFiles().get(slot - 1);
      created.add(new WorkerProcess(context, slot, supervisor, prepared.command(), file, processes.key(), settings,
          this::changed));
    }
    return created;
  }

  /** Every address is registered (cluster-wide where it must be) before the first process starts. */
  private Future<?> listen(String supervisor) {
    Bus bus = new Bus(vertx);
    var ready = bus.serve(WorkerOps.memberReady(supervisor), this::announced);
    bus.serveLocal(WorkerOps.LOCAL_STATUS, none -> Future.succeededFuture(status()));
    bus.serveLocal(WorkerOps.LOCAL_METRICS, none -> metrics());
    var queries = bus.serve(WorkerOps.QUERY_RUN, this::onQuery);
    var ping = bus.serve(WorkerOps.PING, none -> ping());
    return Future.all(ready.completion(), queries.completion(), ping.completion());
  }

  /**
   * A pool of one: completes when its member has started, within {@code startTimeoutMs} (see {@link StartDeadline});
   * fails with its reason if it could not.
   */
  private Future<Void> ready() {
    return deadline.await(self.firstStart(), () -> status().toJson().encode());
  }

  /**
   * One configuration file per process: the node's worker and cluster settings, and a cache of its own.
   * Readable by this account only, though it holds no secret: the cluster key goes over standard input. Their
   * directory is in the data directory, which must be this account's alone (see {@link PrivateFiles#dataDir}).
   */
  private static List<Path> writeConfigurations(Path home, JsonObject child, int count, int keepWarm)
      throws IOException {
    PrivateFiles.dataDir(home.getParent());
    PrivateFiles.directory(home);
    List<Path> files = new ArrayList<>();
    for (int slot = 1; slot <= count; slot++) {
      JsonObject config = child.copy();
      JsonObject worker = config.getJsonObject("worker").put("name", "local-" + slot);
      if (slot > keepWarm) {
        // Started when a query waits for it: warming up first would make that query wait longer than running cold.
        worker.put("warmUp", false);
      }
      Path file = home.resolve("worker-" + slot + ".json");
      PrivateFiles.file(Files.exists(file) ? file : PrivateFiles.newFile(file));
      Files.writeString(file, config.encodePrettily());
      files.add(file);
    }
    return files;
  }

  private Future<Void> announced(LocalWorker worker) {
    members.forEach(m -> m.announced(worker));
    return Future.succeededFuture();
  }

  /** The worker's reply passes on as it came (see {@link io.quarry.bus.WorkerReply}). */
  private Future<WorkerOps.Answer> onQuery(QueryRequest query) {
    return placement.run(query, pool.worker().timeouts().limit(query.timeoutMs())).map(WorkerOps.Answer::new);
  }

  /** A member started, became ready or died: queries waiting for one may go, and local listeners hear of it. */
  private void changed(Member member) {
    placement.drain();
    vertx.eventBus().publish(Addresses.WORKER_LOCAL_EVENTS, member.status().toJson(), new DeliveryOptions().setLocalOnly(true));
  }

  /**
   * Readiness: how many members take queries now. None is ready too while one can start when a query comes (the
   * query waits for it); a failure that says so when every member is on its way up.
   */
  private Future<WorkerOps.Ready> ping() {
    long ready = members.stream().filter(Member::isReady).count();
    return ready > 0 || members.stream().anyMatch(Member::isIdle) ? Future.succeededFuture(new WorkerOps.Ready(ready))
        : Future.failedFuture(new QuarryException(Failure.UNAVAILABLE, "No query worker is ready"));
  }

  /** Every running process's metrics; one that does not answer is left out of this scrape. */
  private Future<List<WorkerOps.Metrics>> metrics() {
    List<Future<WorkerOps.Metrics>> each = members.stream().map(m -> m.metrics().otherwiseEmpty()).toList();
    return Future.join(each).transform(done -> Future.succeededFuture(
        each.stream().filter(f -> f.succeeded() && f.result() != null).map(Future::result).toList()));
  }

  private LocalWorkerStatus.Pool status() {
    return new LocalWorkerStatus.Pool(settings.count(), settings.heapMb(), settings.memoryCapMb(), placement.waiting(),
        members.stream().map(Member::status).toList());
  }

  @Override
  public Future<?> stop() {
    vertx.cancelTimer(idleTimer);
    placement.close();
    metrics.close();
    return Future.all(members.stream().map(Member::stop).toList());
  }
}
