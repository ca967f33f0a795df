package io.quarry.dataset;

import io.quarry.bus.Addresses;
import io.quarry.bus.Bus;
import io.quarry.bus.QuarryException;
import io.quarry.bus.QueryRequest;
import io.quarry.bus.QueryResult;
import io.quarry.bus.RowsJson;
import io.quarry.bus.WorkerReply;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * {@code worker.query.run} as a worker pool answers it, for testing the dataset verticle alone: it records each
 * request and meets it with the next scripted move, or else answers an added file's engine check with one column, and
 * any other query with one row naming the tables it was given (see {@link #tablesOf}), so a test can tell which tables an answer was computed over. Its state is safe to
 * read from the test's thread.
 */
final class FakeWorker {

  private final List<QueryRequest> requests = new CopyOnWriteArrayList<>();
  private final Queue<Consumer<Message<JsonObject>>> script = new ConcurrentLinkedQueue<>();
  private final AtomicInteger sent = new AtomicInteger();
  private final MessageConsumer<JsonObject> consumer;
  private final Vertx vertx;

  private FakeWorker(Vertx vertx) {
    this.vertx = vertx;
    new Bus(vertx); // registers how a QuarryException travels, as any node of Quarry does
    vertx.eventBus().addOutboundInterceptor(delivery -> {
      if (Addresses.WORKER_QUERY_RUN.equals(delivery.message().address())) {
        sent.incrementAndGet();
      }
      delivery.next();
    });
    consumer = vertx.eventBus().consumer(Addresses.WORKER_QUERY_RUN, this::handle);
  }

  /** Bound to the worker address. */
  static Future<FakeWorker> start(Vertx vertx) {
    FakeWorker worker = new FakeWorker(vertx);
    return worker.consumer.completion().map(worker);
  }

  /** The answer a worker gives over {@code tables}: one row, the tables' names joined by commas. */
  static QueryResult over(Map<String, String> tables) {
    return new QueryResult(null, null, null, new JsonArray().add(new JsonObject().put("name", "tables")
        .put("type", "VARCHAR")), RowsJson.of(new JsonArray().add(new JsonArray().add(String.join(",",
        tables.keySet())))), 1, false, 3, null, null);
  }

  /** What it answers the engine check of an added file (DESCRIBE), unless scripted: one VARCHAR column. */
  private static QueryResult describedAsOneColumn() {
    return new QueryResult(null, null, null, new JsonArray().add(new JsonObject().put("name", "column_name")
        .put("type", "VARCHAR")).add(new JsonObject().put("name", "column_type").put("type", "VARCHAR")),
        RowsJson.of(new JsonArray().add(new JsonArray().add("value").add("VARCHAR"))), 1, false, 1, null, null);
  }

  /** Which tables an answer made by {@link #over} was computed over. */
  static String tablesOf(QueryResult result) {
    return result.rowValues().getJsonArray(0).getString(0);
  }

  private void handle(Message<JsonObject> msg) {
    QueryRequest request = QueryRequest.fromJson(msg.body());
    requests.add(request);
    Consumer<Message<JsonObject>> move = script.poll();
    if (move != null) {
      move.accept(msg);
    } else if (request.sql().contains("(DESCRIBE ")) {
      msg.reply(WorkerReply.encode(describedAsOneColumn(), "fake-worker"));
    } else {
      msg.reply(WorkerReply.encode(over(request.tables()), "fake-worker"));
    }
  }

  /** The next request fails as a worker fails a query (a domain failure: RECIPIENT_FAILURE). */
  FakeWorker thenFail(QuarryException failure) {
    script.add(msg -> msg.reply(failure));
    return this;
  }

  /** The next request is answered with {@code result}. */
  FakeWorker thenAnswer(QueryResult result) {
    script.add(msg -> msg.reply(WorkerReply.encode(result, "fake-worker")));
    return this;
  }

  /**
   * The next request is answered with {@code result} {@code ms} later: a pool that waited for its first worker to
   * start, which does not count against the query's limit, answers after it.
   */
  FakeWorker thenAnswerAfter(long ms, QueryResult result) {
    script.add(msg -> vertx.setTimer(ms, t -> msg.reply(WorkerReply.encode(result, "fake-worker"))));
    return this;
  }

  /** The next request is never answered: its sender times out, as with a worker whose node died. */
  FakeWorker thenSilent() {
    script.add(msg -> {
    });
    return this;
  }

  /** The next request fails as one sent to a worker that is gone (NO_HANDLERS), e.g. on a node that left. */
  FakeWorker thenUnreachable() {
    script.add(msg -> msg.reply(new ReplyException(ReplyFailure.NO_HANDLERS, "No handlers for address "
        + Addresses.WORKER_QUERY_RUN)));
    return this;
  }

  /** No worker at all: requests get NO_HANDLERS. */
  Future<Void> unregister() {
    return consumer.unregister();
  }

  /** Every request this worker received, oldest first. */
  List<QueryRequest> requests() {
    return List.copyOf(requests);
  }

  /** How many requests were sent to the worker address, whether or not a worker was there to receive them. */
  int sent() {
    return sent.get();
  }
}
