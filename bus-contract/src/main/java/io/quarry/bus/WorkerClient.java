package io.quarry.bus;

import io.vertx.core.Future;
import io.vertx.core.eventbus.EventBus;

/** A query worker: runs one read-only SQL statement over the tables it is given. */
public final class WorkerClient {

  /** What a query's caller hears when no worker can take it (UNAVAILABLE). */
  public static final String NO_WORKER = "No query worker available";

  private final EventBus bus;

  public WorkerClient(EventBus bus) {
    this.bus = bus;
  }

  /** The result carries no id: it is not stored yet. */
  public Future<QueryResult> run(QueryRequest request) {
    return run(request, request.timeoutMs() + Deliveries.QUERY_GRACE_MS);
  }

  /**
   * With an explicit wait: a request already sent to a node that dies is only noticed when it runs out,
   * so callers that can retry elsewhere keep it short.
   */
  public Future<QueryResult> run(QueryRequest request, long waitMs) {
    return Bus.request(bus, Addresses.WORKER_QUERY_RUN, request.toJson(), Deliveries.within(waitMs))
        .map(QueryResult::fromJson);
  }
}
