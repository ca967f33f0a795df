package io.quarry.dataset;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.Addresses;
import io.quarry.bus.Conversation;
import io.quarry.bus.DatasetClient;
import io.quarry.bus.QueryRequest;
import io.quarry.bus.QueryResult;
import io.quarry.bus.QueryTimeouts;
import io.quarry.bus.WorkerReply;
import io.quarry.testing.FakeStorage;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A member leaves while one user's burst fills their lane: the bus sends every query in flight again at once and two
 * seconds later, and each delivery again must join its query instead of taking a place of its own.
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class LaneResendTest {

  static final String USER = "user-1";
  static final int RUNNING = 4;
  static final int WAITING = 32;

  @Test
  @DisplayName("4 running and 32 waiting when a member leaves: every query delivered three times, none refused with"
      + " 429, each run once on a worker and answered; a 37th is still refused")
  void memberLeftDuringABurst(Vertx vertx) throws Exception {
    FakeStorage storage = FakeStorage.start(vertx).await();
    Worker worker = new Worker(vertx);
    AtomicInteger deliveries = new AtomicInteger();
    Promise<Void> allDeliveredThrice = Promise.promise();
    vertx.eventBus().addInboundInterceptor(delivery -> {
      if (Addresses.DATASET_QUERY_RUN.equals(delivery.message().address())
          && deliveries.incrementAndGet() == 3 * (RUNNING + WAITING)) {
        allDeliveredThrice.complete();
      }
      delivery.next();
    });
    QueryTimeouts timeouts = new QueryTimeouts(10_000);
    vertx.deployVerticle(new DatasetVerticle(), new DeploymentOptions().setConfig(new JsonObject()
        .put("maxQueriesPerUser", RUNNING).put("maxWaitingQueriesPerUser", WAITING)
        .put("query", new JsonObject().put("timeoutMs", timeouts.queryMs())))).await();
    Conversation conversation = storage.seedConversation(USER, "Burst").await();
    storage.seedDataset(conversation.id(), "sales", "https://data.example.com/sales.parquet", 10, new JsonArray())
        .await();
    DatasetClient datasets = new DatasetClient(vertx, timeouts);

    List<Future<QueryResult>> burst = new ArrayList<>();
    for (int i = 0; i < RUNNING + WAITING; i++) {
      burst.add(datasets.query(USER, conversation.id(), "SELECT " + i + " FROM sales"));
    }
    worker.holding.future().await();
    vertx.eventBus().publish(Addresses.CLUSTER_MEMBER_LEFT, "a-worker-node");
    allDeliveredThrice.future().await();
    Throwable past = io.quarry.testing.Failures.failure(datasets.query(USER, conversation.id(), "SELECT 'one more'"));
    assertThat(io.quarry.bus.Failure.classify(past)).isEqualTo(io.quarry.bus.Failure.RATE_LIMITED);
    worker.release();

    Future.join(burst).otherwiseEmpty().await();
    assertThat(burst).allMatch(Future::succeeded);
    assertThat(worker.requests).hasSize(RUNNING + WAITING);
    assertThat(worker.requests.stream().map(QueryRequest::sql).distinct()).hasSize(RUNNING + WAITING);
  }

  /** Holds the first queries it gets until released, then answers them and every later one at once. */
  static final class Worker {
    final List<QueryRequest> requests = new java.util.concurrent.CopyOnWriteArrayList<>();
    final Promise<Void> holding = Promise.promise();
    private final List<Message<JsonObject>> held = new ArrayList<>();
    private boolean released;

    Worker(Vertx vertx) {
      vertx.eventBus().<JsonObject>consumer(Addresses.WORKER_QUERY_RUN, this::handle).completion().await();
    }

    private synchronized void handle(Message<JsonObject> message) {
      requests.add(QueryRequest.fromJson(message.body()));
      if (released) {
        answer(message);
        return;
      }
      held.add(message);
      if (held.size() == RUNNING) {
        holding.complete();
      }
    }

    synchronized void release() {
      released = true;
      held.forEach(Worker::answer);
    }

    private static void answer(Message<JsonObject> message) {
      message.reply(WorkerReply.encode(FakeWorker.over(QueryRequest.fromJson(message.body()).tables()), "worker"));
    }
  }
}
