package io.quarry.worker.pool;

import io.quarry.bus.Bus;
import io.quarry.bus.LocalWorker;
import io.quarry.bus.WorkerOps;
import io.quarry.worker.ProcessMemory;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.io.InputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker-process side of supervision: it tells its node it is ready, and ends when the node is
 * gone (its standard input, a pipe from the node, reaches end of file — even if the node was killed).
 */
public final class Supervised {

  private static final Logger log = LoggerFactory.getLogger(Supervised.class);

  private Supervised() {
  }

  /** {@code supervisor}: {@code supervisorId/workerId} as the node passed it. */
  public static String workerId(String supervisor) {
    return supervisor.substring(supervisor.indexOf('/') + 1);
  }

  public static Future<Void> begin(Vertx vertx, String supervisor) {
    exitWithParent(System.in);
    String supervisorId = supervisor.substring(0, supervisor.indexOf('/'));
    // Reading procfs is file IO: not on the event loop.
    return vertx.executeBlocking(ProcessMemory::addressSpaceCap, false)
        .map(cap -> new LocalWorker(workerId(supervisor), ProcessHandle.current().pid(), cap))
        .compose(me -> WorkerOps.memberReady(supervisorId).call(new Bus(vertx), me));
  }

  private static void exitWithParent(InputStream fromParent) {
    Thread watcher = new Thread(() -> {
      try {
        while (fromParent.read() >= 0) {
          // The node writes nothing; reading only waits for the pipe to close.
        }
      } catch (IOException e) {
        // A broken pipe means the same: the node is gone.
      }
      log.info("The node that started this worker is gone; stopping");
      Runtime.getRuntime().halt(0);
    }, "quarry-parent-watch");
    watcher.setDaemon(true);
    watcher.start();
  }
}
