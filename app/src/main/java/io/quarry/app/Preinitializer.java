package io.quarry.app;

import io.quarry.bus.net.OutboundHttp;
import io.quarry.storage.StorageRole;
import io.quarry.worker.WorkerRole;
import org.slf4j.LoggerFactory;

/**
 * Work a process does once at its start, begun on a thread of its own while the main thread joins the cluster (a
 * second of Hazelcast, on one core): probing the TLS engine that fetches use and reading the heap's size that bounds
 * them (which the roles' deployment would otherwise do on an event loop); in a process that keeps SQLite, loading its
 * library; in one that runs queries, loading DuckDB's (a worker process is ready that much sooner). What has not
 * finished when a role needs it is waited for there, as before; a failure is met and reported there too (DuckDB's is
 * also logged here with its cause, which a second attempt no longer gives). All are done once per JVM.
 */
final class Preinitializer {

  private Preinitializer() {
  }

  static void start(boolean keepsSqlite, boolean runsQueries) {
    // Logging is set up here first, on this thread: begun by the other thread's first log call while this one starts
    // too, SLF4J would set its calls aside and warn on the process's standard error that it replayed them.
    LoggerFactory.getILoggerFactory();
    Thread thread = new Thread(() -> {
      OutboundHttp.preload();
      if (keepsSqlite) {
        StorageRole.preload();
      }
      if (runsQueries) {
        WorkerRole.preload();
      }
    }, "quarry-preinitializer");
    thread.setDaemon(true);
    thread.start();
  }
}
