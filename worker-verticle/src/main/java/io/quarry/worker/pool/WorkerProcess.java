package io.quarry.worker.pool;

import io.quarry.bus.Bus;
import io.quarry.bus.Failure;
import io.quarry.bus.LocalWorker;
import io.quarry.bus.LocalWorkerStatus;
import io.quarry.bus.QuarryException;
import io.quarry.bus.QueryRequest;
import io.quarry.bus.QueryTimeouts;
import io.quarry.bus.Sizes;
import io.quarry.bus.Timestamps;
import io.quarry.bus.WorkerClient;
import io.quarry.bus.WorkerOps;
import io.vertx.core.AsyncResult;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One supervised worker process (a slot): started when its pool needs it, watched, restarted when it dies, retired
 * when it has long been idle, stopped with the node. The queries it runs are tracked, so that when it dies their
 * callers hear why at once instead of waiting out their time limit. Lives on its supervisor's context only.
 */
final class WorkerProcess implements Member {

  private static final Logger log = LoggerFactory.getLogger(WorkerProcess.class);

  /** A process that dies sooner than this after starting counts towards a slower restart. */
  private static final long QUICK_DEATH_MS = 10_000;
  private static final long MAX_RESTART_DELAY_MS = 30_000;

  /** IDLE: no process (not started yet, or retired for want of work); the pool starts one when queries need it. */
  enum State { IDLE, STARTING, READY, RESTARTING, STOPPED }

  private final Context context;
  private final Bus bus;
  private final int slot;
  private final String supervisor;
  private final WorkerCommand command;
  private final Path configFile;
  private final ClusterKey key;
  private final LocalWorkersConfig settings;
  private final Consumer<Member> changed;
  private final Set<Promise<Buffer>> inFlight = new HashSet<>();

  private State state = State.IDLE;
  /** A scrape waits this long for a process's metrics: Prometheus's own scrape timeout is 10 s by default. */
  static final long METRICS_WAIT_MS = 2_000;
  private String workerId;
  /** This start was killed for staying silent past a query's limit. */
  private boolean stuck;
  private Process process;
  /** Completes once the current process has ended and what it left is tidied. */
  private CompletableFuture<Process> ended;
  /** Completes once the last process retired for idleness has ended and what it left is tidied. */
  private Future<Void> retiring = Future.succeededFuture();
  private LocalWorker announced;
  private long startedAtMs;
  /** When it last ran a query or became ready: how long it has been idle counts from here. */
  private long busyAtMs;
  private int restarts;
  private int quickDeaths;
  private String lastExitAt;
  private String lastExitCause;

  WorkerProcess(Context context, int slot, String supervisor, WorkerCommand command, Path configFile, ClusterKey key,
      LocalWorkersConfig settings, Consumer<Member> changed) {
    this.context = context;
    this.bus = new Bus(context.owner());
    this.slot = slot;
    this.supervisor = supervisor;
    this.command = command;
    this.configFile = configFile;
    this.key = key;
    this.settings = settings;
    this.changed = changed;
  }

  @Override
  public void start() {
    String id = UUID.randomUUID().toString();
    workerId = id;
    state = State.STARTING;
    announced = null;
    startedAtMs = System.currentTimeMillis();
    context.owner().setTimer(Math.max(1, settings.startTimeoutMs()), t -> notReadyInTime(id));
    context.owner().executeBlocking(() -> spawn(id), false).onComplete(spawned -> spawned(id, spawned));
  }

  /** A start that is not ready within {@code startTimeoutMs} is killed, and counts as a death (restarted later). */
  private void notReadyInTime(String id) {
    Process running = process;
    if (state == State.STARTING && id.equals(workerId) && running != null && running.isAlive()) {
      log.warn("{} was not ready within {} of its start ({}); killing it", name(),
          Sizes.seconds(settings.startTimeoutMs()), StartDeadline.SETTING);
      running.destroyForcibly();
    }
  }

  /** Building the command looks at files (the shell, the class archive): off the event loop, like the fork. */
  private Process spawn(String id) throws IOException {
    try {
      Process started = command.build(slot, supervisor, id, configFile).start();
      key.send(started.getOutputStream());
      return started;
    } catch (IOException | RuntimeException e) {
      command.ended(id);
      throw e;
    }
  }

  private void spawned(String id, AsyncResult<Process> spawned) {
    if (spawned.failed()) {
      died(id, null, "could not start: " + spawned.cause().getMessage());
      return;
    }
    Process started = spawned.result();
    ChildOutput pumped = ChildOutput.pump(started.getInputStream(), name(), System.out);
    // Its last lines tell why it died, so they are read to the end (bounded) before the exit is judged.
    CompletableFuture<Process> ended = started.onExit()
        .thenCompose(exited -> pumped.finished().completeOnTimeout(null, 1, TimeUnit.SECONDS).thenApply(v -> exited))
        .thenApply(exited -> {
          command.ended(id);
          return exited;
        });
    ended.thenAccept(exited -> context.runOnContext(v -> exited(id, exited, pumped)));
    if (state == State.STOPPED) {
      started.destroyForcibly();
      return;
    }
    process = started;
    this.ended = ended;
    changed.accept(this);
  }

  /** A process announced itself; only the current start counts (a late word from a dead one is ignored). */
  @Override
  public void announced(LocalWorker worker) {
    if (state != State.STARTING || !worker.id().equals(workerId)) {
      return;
    }
    announced = worker;
    state = State.READY;
    busyAtMs = System.currentTimeMillis();
    log.info("{} ready: pid {}, address-space cap {}", name(), worker.pid(),
        worker.memoryCapBytes() > 0 ? Sizes.human(worker.memoryCapBytes()) : "none");
    context.owner().executeBlocking(() -> {
      command.ready(worker.id());
      return null;
    }, false);
    changed.accept(this);
  }

  @Override
  public int slot() {
    return slot;
  }

  @Override
  public boolean isReady() {
    return state == State.READY;
  }

  @Override
  public boolean isIdle() {
    return state == State.IDLE;
  }

  @Override
  public boolean isStarting() {
    return state == State.STARTING || state == State.RESTARTING;
  }

  @Override
  public long idleMs(long nowMs) {
    return state == State.READY && inFlight.isEmpty() ? nowMs - busyAtMs : 0;
  }

  @Override
  public int load() {
    return inFlight.size();
  }

  @Override
  public Future<WorkerOps.Metrics> metrics() {
    if (state != State.READY) {
      return Future.succeededFuture(null);
    }
    return WorkerOps.memberMetrics(workerId).call(bus, null, METRICS_WAIT_MS)
        .map(reply -> new WorkerOps.Metrics(name(), reply.text()));
  }

  /** Forwards one query to this process. */
  @Override
  public Future<Buffer> run(QueryRequest query, long timeoutMs) {
    Promise<Buffer> answer = Promise.promise();
    inFlight.add(answer);
    String id = workerId;
    WorkerOps.memberQueryRun(id).call(bus, query, QueryTimeouts.memberWaitMs(timeoutMs))
        .onComplete(reply -> {
          inFlight.remove(answer);
          busyAtMs = System.currentTimeMillis();
          if (reply.succeeded()) {
            answer.tryComplete(reply.result().bytes());
          } else if (Member.silent(reply.cause())) {
            answer.tryFail(Member.timedOut(timeoutMs));
            wedged(id, timeoutMs);
          } else if (Member.gone(reply.cause())) {
            dropped(id);
            answer.tryFail(new MemberDied(new QuarryException(Failure.INTERNAL, WorkerClient.STOPPED), true));
          } else {
            answer.tryFail(reply.cause());
          }
        });
    return answer.future();
  }

  /**
   * A worker cancels a query at its time limit and says so; one that stays silent well past it is stuck
   * (frozen, or deep in native code that ignores the cancel) and is killed, then restarted like any other.
   */
  private void wedged(String id, long timeoutMs) {
    Process running = process;
    if (id.equals(workerId) && running != null && running.isAlive()) {
      log.warn("{} did not answer a query within {} ms, {} ms past its limit; killing it", name(),
          QueryTimeouts.memberWaitMs(timeoutMs), QueryTimeouts.memberWaitMs(timeoutMs) - timeoutMs);
      stuck = true;
      running.destroyForcibly();
    }
  }

  /**
   * The cluster dropped this process (frozen past its heartbeats, say): nothing reaches it any more, so it can serve
   * nobody; no query is placed on it from now, and it is killed and restarted like any other.
   */
  private void dropped(String id) {
    Process running = process;
    if (state == State.READY && id.equals(workerId) && running != null && running.isAlive()) {
      log.warn("{} is no longer in the cluster (nobody at its address); killing it", name());
      state = State.RESTARTING;
      stuck = true;
      changed.accept(this);
      running.destroyForcibly();
    }
  }

  private void exited(String id, Process exited, ChildOutput output) {
    if (state == State.STOPPED || !id.equals(workerId)) {
      return;
    }
    ExitCause cause = ExitCause.of(exited.exitValue(), output.tail());
    died(id, cause, cause.describe() + (cause.lastLine().isEmpty() ? "" : "; last output: " + cause.lastLine()));
  }

  private void died(String id, ExitCause cause, String description) {
    if (state == State.STOPPED || !id.equals(workerId)) {
      return;
    }
    boolean quick = System.currentTimeMillis() - startedAtMs < QUICK_DEATH_MS;
    quickDeaths = quick ? quickDeaths + 1 : 0;
    long delay = Math.min(MAX_RESTART_DELAY_MS, settings.restartDelayMs() << Math.min(quickDeaths, 6));
    lastExitAt = Timestamps.now();
    lastExitCause = description;
    PoolMetrics.restarted(stuck ? "stuck" : cause != null && cause.memory() ? "out_of_memory" : "crash");
    stuck = false;
    // Restarting before its queries hear of it, so that none of them is run again on this member.
    state = State.RESTARTING;
    boolean memory = cause != null && cause.memory();
    failInFlight(new MemberDied(new QuarryException(memory ? Failure.SQL : Failure.INTERNAL,
        cause == null ? WorkerClient.STOPPED : cause.message()), !memory));
    log.warn("{} ended ({}); restarting in {} ms", name(), description, delay);
    process = null;
    restarts++;
    changed.accept(this);
    context.owner().setTimer(delay, t -> {
      if (state == State.RESTARTING) {
        start();
      }
    });
  }

  private void failInFlight(RuntimeException failure) {
    List<Promise<Buffer>> failing = new ArrayList<>(inFlight);
    inFlight.clear();
    failing.forEach(answer -> answer.tryFail(failure));
  }

  /**
   * Asks the process to end (on its standard input, and SIGTERM), and kills it if it has not within a few seconds.
   * Completes once what the process left is tidied (its class archive put in place, its temporary files gone): a node
   * that stops exits next.
   */
  @Override
  public Future<Void> stop() {
    state = State.STOPPED;
    failInFlight(new QuarryException(Failure.UNAVAILABLE, WorkerClient.NO_WORKER));
    return Future.all(end(), retiring).mapEmpty();
  }

  /**
   * Ends an idle process for want of work, as {@link #stop} does; the slot starts a new one when queries need it. Its
   * exit is expected, so it is neither reported as a death nor restarted.
   */
  @Override
  public Future<Void> retire() {
    if (state != State.READY || !inFlight.isEmpty()) {
      return Future.succeededFuture();
    }
    log.info("{} idle for {} ms; stopping it until queries need it", name(), System.currentTimeMillis() - busyAtMs);
    retiring = end();
    state = State.IDLE;
    workerId = null;
    announced = null;
    process = null;
    changed.accept(this);
    return retiring;
  }

  private Future<Void> end() {
    Process running = process;
    CompletableFuture<Process> tidied = ended;
    if (running == null) {
      return Future.succeededFuture();
    }
    long grace = command.stopGraceMs(workerId);
    // Said on the pipe before destroy() closes it: a pipe that closes unannounced tells the worker its node is dead.
    NodeWatch.askToStop(running.getOutputStream());
    running.destroy();
    return Future.fromCompletionStage(tidied.copy().orTimeout(grace, TimeUnit.MILLISECONDS), context)
        .recover(e -> {
          log.warn("{} did not end within {} ms of being asked to; killed", name(), grace);
          running.destroyForcibly();
          return Future.fromCompletionStage(tidied.copy().completeOnTimeout(running, grace,
              TimeUnit.MILLISECONDS), context);
        })
        .mapEmpty();
  }

  @Override
  public LocalWorkerStatus status() {
    Process running = process;
    return new LocalWorkerStatus(name(), state.name().toLowerCase(Locale.ROOT), running == null ? null : running.pid(),
        restarts, inFlight.size(), announced == null ? null : announced.memoryCapBytes(), lastExitAt, lastExitCause);
  }

  private String name() {
    return "worker-" + slot;
  }
}
