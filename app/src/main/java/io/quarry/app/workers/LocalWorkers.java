package io.quarry.app.workers;

import io.quarry.bus.Addresses;
import io.quarry.bus.Bus;
import io.quarry.bus.Failure;
import io.quarry.bus.LocalWorker;
import io.quarry.bus.LocalWorkerStatus;
import io.quarry.bus.QuarryException;
import io.quarry.bus.QueryRequest;
import io.quarry.bus.WorkerClient;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * The worker role of a node that also serves HTTP, runs LLM turns or owns SQLite: DuckDB must not run
 * in that process, so this verticle starts worker processes from the same jar, joined to this node
 * over the clustered event bus, and takes {@code worker.query.run} on their behalf, handing each query
 * to a ready process (see {@link Affinity}). It restarts a process that dies and tells that process's callers why.
 *
 * <p>Deployment config: {@code node} (this node), {@code settings} ({@link LocalWorkersConfig}),
 * {@code home} (a directory for the processes' files), {@code child} (their configuration: sections
 * {@code worker}, {@code cluster} and {@code vertx}), {@code mainClass}.
 */
public class LocalWorkers extends VerticleBase {

  private final ClusterKey key;
  private final List<WorkerProcess> processes = new ArrayList<>();
  private final Deque<Waiting> waiting = new ArrayDeque<>();
  private LocalWorkersConfig settings;
  private long queryTimeoutMs;
  private int busyAt;

  /** {@code key}: how the processes join this node's cluster, handed to each over its standard input. */
  public LocalWorkers(ClusterKey key) {
    this.key = key;
  }

  @Override
  public Future<?> start() {
    settings = LocalWorkersConfig.from(config().getJsonObject("settings"));
    queryTimeoutMs = config().getJsonObject("child").getJsonObject("worker").getLong("queryTimeoutMs", 60_000L);
    busyAt = config().getJsonObject("child").getJsonObject("worker").getInteger("threads", 2);
    String supervisor = config().getJsonObject("node").getString("id");
    Path home = Path.of(config().getString("home")).toAbsolutePath();
    JsonObject child = config().getJsonObject("child");
    return vertx.executeBlocking(() -> prepare(home, child), false)
        .compose(prepared -> {
          createProcesses(supervisor, prepared);
          return listen(supervisor);
        })
        .onSuccess(v -> processes.forEach(WorkerProcess::start));
  }

  /** What the processes need: their configuration files, and their command (class archive, temporary files). */
  private record Prepared(List<Path> configFiles, WorkerCommand command) {
  }

  private Prepared prepare(Path home, JsonObject child) throws IOException {
    List<Path> files = writeConfigurations(home, child, settings.count());
    ClassArchive classes = ClassArchive.in(settings.classArchiveDir().isBlank() ? home
        : Path.of(settings.classArchiveDir()).toAbsolutePath());
    WorkerCommand command = new WorkerCommand(settings, config().getString("mainClass"), home, classes,
        vertx.fileSystem());
    command.clearLeftovers();
    return new Prepared(files, command);
  }

  private void createProcesses(String supervisor, Prepared prepared) {
    WorkerCommand command = prepared.command();
    for (int slot = 1; slot <= settings.count(); slot++) {
      int index = slot - 1;
      Path file = prepared.configFiles().get(index);
      processes.add(new WorkerProcess(context, slot, supervisor, command, file, key, settings,
          () -> changed(processes.get(index))));
    }
  }

  /** Every address is registered (cluster-wide where it must be) before the first process starts. */
  private Future<?> listen(String supervisor) {
    var ready = vertx.eventBus().<JsonObject>consumer(Addresses.localWorkerReady(supervisor),
        msg -> announced(LocalWorker.fromJson(msg.body()), msg));
    vertx.eventBus().<JsonObject>localConsumer(Addresses.WORKER_LOCAL_STATUS, msg -> msg.reply(status()));
    var queries = Bus.serve(vertx.eventBus(), Addresses.WORKER_QUERY_RUN, this::onQuery);
    return Future.all(ready.completion(), queries.completion());
  }

  /**
   * Completes when every process has started once, within {@code startTimeoutMs}; fails with the first
   * process's reason if one dies before it is ready (a misconfiguration should stop the node, not loop).
   */
  public Future<Void> ready() {
    Promise<Void> ready = Promise.promise();
    long timer = vertx.setTimer(settings.startTimeoutMs(), t -> ready.tryFail(new IllegalStateException(
        "Local workers were not ready within " + settings.startTimeoutMs() / 1000 + " s: " + status().encode())));
    Future.all(processes.stream().map(WorkerProcess::firstStart).toList())
        .onComplete(all -> {
          vertx.cancelTimer(timer);
          if (all.succeeded()) {
            ready.tryComplete();
          } else {
            ready.tryFail(all.cause());
          }
        });
    return ready.future();
  }

  /**
   * One configuration file per process: the node's worker and cluster settings, and a cache of its own.
   * Readable by this account only, though it holds no secret: the cluster key goes over standard input.
   */
  private static List<Path> writeConfigurations(Path home, JsonObject child, int count) throws IOException {
    Files.createDirectories(home);
    List<Path> files = new ArrayList<>();
    for (int slot = 1; slot <= count; slot++) {
      JsonObject config = child.copy();
      config.getJsonObject("worker").put("name", "local-" + slot);
      Path file = home.resolve("worker-" + slot + ".json");
      Files.writeString(file, config.encodePrettily());
      ownerOnly(file);
      files.add(file);
    }
    return files;
  }

  private static void ownerOnly(Path file) throws IOException {
    if (file.getFileSystem().supportedFileAttributeViews().contains("posix")) {
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    }
  }

  private void announced(LocalWorker worker, Message<JsonObject> msg) {
    processes.forEach(p -> p.ready(worker));
    msg.reply(new JsonObject());
  }

  /** The worker's reply passes on as it came (see {@link io.quarry.bus.WorkerReply}). */
  private Future<Buffer> onQuery(JsonObject body) {
    QueryRequest query = QueryRequest.fromJson(body);
    return ready(query).compose(process -> process.run(query, queryTimeoutMs));
  }

  /** The process for this query (see {@link Affinity}); when none is ready (all restarting), the query waits for one. */
  private Future<WorkerProcess> ready(QueryRequest query) {
    List<WorkerProcess> ready = processes.stream().filter(WorkerProcess::isReady).toList();
    if (!ready.isEmpty()) {
      return Future.succeededFuture(Affinity.choose(ready, query, busyAt).orElseThrow());
    }
    Promise<WorkerProcess> wait = Promise.promise();
    waiting.add(new Waiting(query, wait));
    vertx.setTimer(settings.startTimeoutMs(), t -> {
      if (waiting.removeIf(w -> w.process() == wait)) {
        wait.tryFail(new QuarryException(Failure.UNAVAILABLE, WorkerClient.NO_WORKER));
      }
    });
    return wait.future();
  }

  private record Waiting(QueryRequest query, Promise<WorkerProcess> process) {
  }

  /** A process started, became ready or died: queries waiting for one may go, and local listeners hear of it. */
  private void changed(WorkerProcess process) {
    drainWaiting();
    vertx.eventBus().publish(Addresses.WORKER_LOCAL_EVENTS, process.status().toJson(), new DeliveryOptions().setLocalOnly(true));
  }

  private void drainWaiting() {
    while (!waiting.isEmpty() && processes.stream().anyMatch(WorkerProcess::isReady)) {
      Waiting next = waiting.poll();
      ready(next.query()).onSuccess(next.process()::tryComplete);
    }
  }

  private JsonObject status() {
    return LocalWorkerStatus.pool(settings.count(), settings.heapMb(), settings.memoryCapMb(),
        processes.stream().map(WorkerProcess::status).toList());
  }

  @Override
  public Future<?> stop() {
    waiting.forEach(w -> w.process().tryFail(new QuarryException(Failure.UNAVAILABLE, WorkerClient.NO_WORKER)));
    return Future.all(processes.stream().map(WorkerProcess::stop).toList());
  }
}
