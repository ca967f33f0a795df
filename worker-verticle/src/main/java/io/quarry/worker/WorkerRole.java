package io.quarry.worker;

import io.quarry.worker.pool.Supervised;
import io.quarry.worker.pool.WorkerPool;
import io.quarry.worker.pool.WorkerProcessMetrics;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker role, as a node deploys it, in the shape its settings give (see {@link WorkerRoleSettings}). Its node
 * deploys it, then its other roles, then, in a worker process, waits for it to be {@link #ready}; a node's worker
 * processes start when queries need them, and its readiness does not wait for them.
 */
public final class WorkerRole {

  private static final Logger log = LoggerFactory.getLogger(WorkerRole.class);

  /** The driver's class whose initialization copies DuckDB's library out of the class path and loads it. */
  private static final String DUCKDB_NATIVE = "org.duckdb.DuckDBNative";

  private final String deploymentId;
  private final Supplier<Future<Void>> ready;

  private WorkerRole(String deploymentId, Supplier<Future<Void>> ready) {
    this.deploymentId = deploymentId;
    this.ready = ready;
  }

  /**
   * Blocking: loads DuckDB's native library, which the first database's open would do (the driver copies the 72 MB
   * file out of the class path, then links it: a quarter of a CPU-second), so that a process that runs queries does it
   * while it joins its cluster. Whether it loaded; never throws. A failure is logged with its cause, which the open's
   * own error would no longer give ("Could not initialize class"), and the open then fails the start as before.
   */
  public static boolean preload() {
    return initialize(DUCKDB_NATIVE);
  }

  /** Initializes the class named, if the driver still has it. */
  static boolean initialize(String className) {
    try {
      Class.forName(className, true, WorkerRole.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException e) {
      log.warn("DuckDB's driver has no class {}: its library loads at the first database's open instead", className);
    } catch (LinkageError e) {
      log.warn("DuckDB's native library did not load: {}", e.getCause() != null ? e.getCause() : e);
    }
    return false;
  }

  public static Future<WorkerRole> deploy(Vertx vertx, WorkerRoleSettings settings) {
    if (settings instanceof WorkerRoleSettings.Member member) {
      return member(vertx, member);
    }
    if (settings instanceof WorkerRoleSettings.Processes processes) {
      WorkerPool pool = WorkerPool.ofProcesses(processes.pool());
      return vertx.deployVerticle(pool).map(id -> new WorkerRole(id, Future::succeededFuture));
    }
    WorkerPool pool = WorkerPool.inProcess(((WorkerRoleSettings.InProcess) settings).pool());
    return vertx.deployVerticle(pool).map(id -> new WorkerRole(id, Future::succeededFuture));
  }

  /**
   * Both from the caller's thread: one deployed from the other's context would be its child, and go with it. Ready once
   * it has told its node so, which then gives it queries.
   */
  private static Future<WorkerRole> member(Vertx vertx, WorkerRoleSettings.Member settings) {
    Future<String> metrics = vertx.deployVerticle(new WorkerProcessMetrics(settings.worker().localWorkerId(),
        settings.metrics()));
    Future<String> worker = vertx.deployVerticle(new WorkerVerticle(settings.worker()));
    return Future.all(metrics, worker)
        .map(both -> new WorkerRole(worker.result(), () -> Supervised.begin(vertx, settings.supervisor())));
  }

  /** The deployment that is the worker role on this node: undeploying it stops the node's workers. */
  public String deploymentId() {
    return deploymentId;
  }

  /**
   * Completes when the role takes queries: at once on a node (its pool holds queries until a worker can take them);
   * in a worker process, once its node has heard it is ready.
   */
  public Future<Void> ready() {
    return ready.get();
  }
}
