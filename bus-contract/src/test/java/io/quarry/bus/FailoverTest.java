package io.quarry.bus;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A receiver that swallows a delivery stands for a node killed under the request: it never answers. The member's
 * departure is published as the launcher publishes it.
 */
class FailoverTest {

  static final String ADDRESS = "test.failover";
  /** Long enough that a test which waits for it fails its own one-minute bound: only a resend answers in time. */
  static final DeliveryOptions LONG = Deliveries.within(120_000);

  final Vertx vertx = Vertx.vertx();
  /** The product's moments to send again after a departure, each a tenth as long. */
  final Failover failover = new Failover(vertx, java.util.Arrays.stream(Failover.AFTER_DEPARTURE_MS).map(ms -> ms / 10)
      .toArray());
  final List<Message<JsonObject>> swallowed = new CopyOnWriteArrayList<>();

  @AfterEach
  void close() {
    vertx.close().await();
  }

  @Test
  @DisplayName("a request in flight when a member leaves is sent again at once, and the first answer wins")
  void memberLeft() throws Exception {
    assertThat(servedAfterDeparture(1, Resend.IDEMPOTENT)).isEqualTo(2);
  }

  @Test
  @DisplayName("a try sent again at a member's departure that still goes to it (the cluster has not dropped it yet) is"
      + " sent once more when the departure has settled")
  void departureSettles() throws Exception {
    assertThat(servedAfterDeparture(2, Resend.NOT_ON_TIMEOUT)).isEqualTo(3);
  }

  @Test
  @DisplayName("a try sent again when the departure has settled that still goes to the member (its registrations not"
      + " swept yet) is sent once more after the sweep, though that makes four tries")
  void departureSwept() throws Exception {
    assertThat(servedAfterDeparture(3, Resend.IDEMPOTENT)).isEqualTo(4);
  }

  /**
   * A request whose first {@code lost} deliveries are swallowed (gone to the member that left), a member's departure
   * published once the first arrived: which delivery was answered.
   */
  private int servedAfterDeparture(int lost, Resend policy) throws Exception {
    CompletableFuture<Void> firstArrived = new CompletableFuture<>();
    vertx.eventBus().<JsonObject>consumer(ADDRESS, msg -> {
      if (swallowed.size() < lost) {
        swallowed.add(msg);
        firstArrived.complete(null);
      } else {
        msg.reply(new JsonObject().put("served", swallowed.size() + 1));
      }
    }).completion().await();
    Future<JsonObject> answer = failover.request(ADDRESS, new JsonObject(), LONG, policy).map(JsonObject.class::cast);
    firstArrived.get(10, TimeUnit.SECONDS);
    vertx.eventBus().publish(Addresses.CLUSTER_MEMBER_LEFT, new JsonObject().put(Keys.NODE_ID, "gone"));
    return answer.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS).getInteger("served");
  }

  @Test
  @DisplayName("a try that times out is made again, up to three tries in all; the third timeout is the answer")
  void timeouts() {
    vertx.eventBus().<JsonObject>consumer(ADDRESS, swallowed::add).completion().await();
    Future<JsonObject> answer = failover.request(ADDRESS, new JsonObject(), Deliveries.within(100), Resend.IDEMPOTENT).map(JsonObject.class::cast);
    Throwable failure = answer.map(v -> (Throwable) null).otherwise(e -> e).await();
    assertThat(failure).isInstanceOf(ReplyException.class);
    assertThat(((ReplyException) failure).failureType()).isEqualTo(ReplyFailure.TIMEOUT);
    assertThat(swallowed).hasSize(Failover.ATTEMPTS);
  }

  @Test
  @DisplayName("a query's timeout is its answer, not a sign of a dead node: it is not sent again")
  void queriesAreNotRetriedOnTimeout() {
    vertx.eventBus().<JsonObject>consumer(ADDRESS, swallowed::add).completion().await();
    Future<JsonObject> answer = failover.request(ADDRESS, new JsonObject(), Deliveries.within(100),
        Resend.NOT_ON_TIMEOUT).map(JsonObject.class::cast);
    assertThat(answer.otherwise(new JsonObject().put("failed", true)).await().getBoolean("failed")).isTrue();
    assertThat(swallowed).hasSize(1);
  }

  @Test
  @DisplayName("nobody listening is tried again after a pause, and served by a node that came meanwhile")
  void noHandlers() throws Exception {
    Future<JsonObject> answer = failover.request(ADDRESS, new JsonObject(), LONG, Resend.NOT_ON_TIMEOUT).map(JsonObject.class::cast);
    vertx.eventBus().<JsonObject>consumer(ADDRESS, msg -> msg.reply(new JsonObject().put("ok", true)))
        .completion().await();
    assertThat(answer.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS).getBoolean("ok")).isTrue();
  }

  @Test
  @DisplayName("a receiver's own failure is the answer at once: it is never sent again")
  void domainFailures() {
    List<Message<JsonObject>> seen = new CopyOnWriteArrayList<>();
    vertx.eventBus().<JsonObject>consumer(ADDRESS, msg -> {
      seen.add(msg);
      msg.fail(Failure.CONFLICT.code(), "taken");
    }).completion().await();
    Throwable failure = failover.request(ADDRESS, new JsonObject(), LONG, Resend.IDEMPOTENT)
        .map(v -> (Throwable) null).otherwise(e -> e).await();
    assertThat(Failure.classify(failure)).isEqualTo(Failure.CONFLICT);
    assertThat(seen).hasSize(1);
  }

  @Test
  @DisplayName("a removal whose first try went unanswered and whose next finds nothing is done: the first did it")
  void removalDoneByAnUnansweredTry() {
    vertx.eventBus().<JsonObject>consumer(ADDRESS, msg -> {
      if (swallowed.isEmpty()) {
        swallowed.add(msg);
      } else {
        msg.fail(Failure.NOT_FOUND.code(), "Conversation not found");
      }
    }).completion().await();
    assertThat(failover.request(ADDRESS, new JsonObject(), Deliveries.within(100), Resend.REMOVAL).await()).isNull();
  }

  @Test
  @DisplayName("a removal that finds nothing at its first try is not found")
  void removalNotFound() {
    vertx.eventBus().<JsonObject>consumer(ADDRESS, msg -> msg.fail(Failure.NOT_FOUND.code(), "Conversation not found"))
        .completion().await();
    Throwable failure = failover.request(ADDRESS, new JsonObject(), LONG, Resend.REMOVAL)
        .map(v -> (Throwable) null).otherwise(e -> e).await();
    assertThat(Failure.classify(failure)).isEqualTo(Failure.NOT_FOUND);
  }
}
