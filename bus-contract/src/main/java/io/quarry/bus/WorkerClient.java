package io.quarry.bus;

import io.vertx.core.Future;
import io.vertx.core.Vertx;

/** A query worker: runs one read-only SQL statement over the tables it is given. */
public final class WorkerClient {

  /** What a query's caller hears when no worker can take it (UNAVAILABLE). */
  public static final String NO_WORKER = "No query worker available";

  /** What a query's caller hears when its node already holds as many queries as it may (UNAVAILABLE). */
  public static final String BUSY = "Server busy, try again shortly";

  /** The query made its worker run out of memory (inside DuckDB, or the whole process). */
  public static final String OUT_OF_MEMORY = "The query used too much memory and was stopped";

  /** The worker process running the query died for another reason (killed, crashed). */
  public static final String STOPPED = "The query worker stopped unexpectedly";

  /**
   * A query that ran past its time limit: {@code what} says where it was (empty, or e.g. " while the data
   * was still downloading"). Said by the worker that cancels it, or by a node whose worker process never
   * answered and was killed for it.
   */
  public static String timedOut(long timeoutMs, String what) {
    return "Query timed out after " + Sizes.seconds(timeoutMs) + what + " and was cancelled";
  }

  private final Bus bus;

  /** Call from the verticle that uses it (see {@link Bus}). */
  public WorkerClient(Vertx vertx) {
    this.bus = new Bus(vertx);
  }

  /** The result carries no id: it is not stored yet. */
  public Future<QueryResult> run(QueryRequest request) {
    return run(request, QueryTimeouts.workerWaitMs(request.timeoutMs()));
  }

  /**
   * With an explicit wait: a request already sent to a node that dies is only noticed when it runs out,
   * so callers that can retry elsewhere keep it short.
   */
  public Future<QueryResult> run(QueryRequest request, long waitMs) {
    return WorkerOps.QUERY_RUN.call(bus, request, waitMs).map(WorkerOps.Answer::result);
  }
}
