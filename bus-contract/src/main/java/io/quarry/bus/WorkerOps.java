package io.quarry.bus;

import static io.quarry.bus.Addresses.*;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;

/** A query worker's operations, and those of a node's pool of worker processes. */
public final class WorkerOps {

  private WorkerOps() {
  }

  /** How many members of the pool that answers take queries now (0 while none runs but one can start on demand). */
  public record Ready(long ready) {
    static final Codec<Ready> CODEC = Codec.json(r -> new JsonObject().put("ready", r.ready),
        json -> new Ready(json.getLong("ready", 0L)));
  }

  /**
   * A worker's answer as it crossed the bus ({@link WorkerReply}): a pool passes it on as it came, and only the node
   * that asked reads it.
   */
  public record Answer(Buffer bytes) {
    public QueryResult result() {
      return WorkerReply.decode(bytes);
    }
  }

  /** One worker process's metrics in Prometheus's text format. */
  public record Metrics(String name, String text) {
    static final Codec<Metrics> CODEC = Codec.json(Metrics::toJson,
        json -> new Metrics(json.getString("name"), json.getString("text")));

    JsonObject toJson() {
      return new JsonObject().put("name", name).put("text", text);
    }
  }

  private static final Codec<QueryRequest> QUERY = Codec.json(QueryRequest::toJson, QueryRequest::fromJson);
  private static final Codec<Answer> ANSWER = Codec.buffer(Answer::bytes, Answer::new);

  /**
   * Readiness: UNAVAILABLE "No query worker is ready" when no member of the pool takes queries and none can be started
   * for one (every member is on its way up).
   */
  public static final Operation<Void, Ready> PING = Operation.of(WORKER_PING, Codec.NONE, Ready.CODEC, 2_000,
      Resend.NEVER);
  /**
   * One read-only SQL statement over the tables it names. Its caller waits as long as the query's limit says
   * ({@link QueryTimeouts#workerWaitMs}).
   */
  public static final Operation<QueryRequest, Answer> QUERY_RUN = Operation.of(WORKER_QUERY_RUN, QUERY, ANSWER,
      Deliveries.DATASET_TIMEOUT_MS, Resend.NEVER);
  /** Where one member of a pool takes its queries ({@link Addresses#localWorker}). */
  public static Operation<QueryRequest, Answer> memberQueryRun(String workerId) {
    return Operation.of(localWorker(workerId), QUERY, ANSWER, Deliveries.DATASET_TIMEOUT_MS, Resend.NEVER);
  }

  /** Where a supervised worker process says it is ready, to the node that started it. */
  public static Operation<LocalWorker, Void> memberReady(String supervisorId) {
    return Operation.of(localWorkerReady(supervisorId), Codec.json(LocalWorker::toJson, LocalWorker::fromJson),
        Codec.NONE, Deliveries.LOCAL_WORKER_READY_MS, Resend.NEVER);
  }

  /** Where a supervised worker process answers its own metrics to its node's pool; its name is the pool's to give. */
  public static Operation<Void, Metrics> memberMetrics(String workerId) {
    return Operation.of(localWorkerMetrics(workerId), Codec.NONE, Metrics.CODEC, 2_000, Resend.NEVER);
  }
  /** Each of a node's worker processes' metrics, for the node's {@code /metrics}; answered inside its process. */
  public static final Operation<Void, java.util.List<Metrics>> LOCAL_METRICS = Operation.of(WORKER_LOCAL_METRICS,
      Codec.NONE, Codec.json(list -> new JsonObject().put("workers", new io.vertx.core.json.JsonArray(
          list.stream().map(Metrics::toJson).toList())), json -> json.getJsonArray("workers",
          new io.vertx.core.json.JsonArray()).stream().map(Metrics.CODEC::decode).toList()), 2_000, Resend.NEVER);
  /** A node's own worker processes, answered inside its process. */
  public static final Operation<Void, LocalWorkerStatus.Pool> LOCAL_STATUS = Operation.of(WORKER_LOCAL_STATUS,
      Codec.NONE, Codec.json(LocalWorkerStatus.Pool::toJson, LocalWorkerStatus.Pool::fromJson), 2_000, Resend.NEVER);
}
