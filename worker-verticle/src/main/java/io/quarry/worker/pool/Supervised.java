package io.quarry.worker.pool;

import io.quarry.bus.Bus;
import io.quarry.bus.LocalWorker;
import io.quarry.bus.WorkerOps;
import io.quarry.worker.ProcessMemory;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

/**
 * The worker-process side of supervision: it tells its node it is ready. It ends when the node is gone, however
 * the node ended and whatever the worker is doing then: see {@link NodeWatch}, begun before anything else.
 */
public final class Supervised {

  private Supervised() {
  }

  /** {@code supervisor}: {@code supervisorId/workerId} as the node passed it. */
  public static String workerId(String supervisor) {
    return supervisor.substring(supervisor.indexOf('/') + 1);
  }

  public static Future<Void> begin(Vertx vertx, String supervisor) {
    String supervisorId = supervisor.substring(0, supervisor.indexOf('/'));
    // Reading procfs is file IO: not on the event loop.
    return vertx.executeBlocking(ProcessMemory::addressSpaceCap, false)
        .map(cap -> new LocalWorker(workerId(supervisor), ProcessHandle.current().pid(), cap))
        .compose(me -> WorkerOps.memberReady(supervisorId).call(new Bus(vertx), me));
  }
}
