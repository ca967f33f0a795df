package io.quarry.bus;

import io.vertx.core.Future;
import io.vertx.core.eventbus.EventBus;

/** A query worker: runs one read-only SQL statement over the tables it is given. */
public final class WorkerClient {

  private final EventBus bus;

  public WorkerClient(EventBus bus) {
    this.bus = bus;
  }

  /** The result carries no id: it is not stored yet. */
  public Future<QueryResult> run(QueryRequest request) {
    return Bus.request(bus, Addresses.WORKER_QUERY_RUN, request.toJson(),
            Deliveries.within(request.timeoutMs() + Deliveries.QUERY_GRACE_MS))
        .map(QueryResult::fromJson);
  }
}
