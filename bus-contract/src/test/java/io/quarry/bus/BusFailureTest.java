package io.quarry.bus;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** A failure's structured fields cross the bus and are read back in one place. */
@ExtendWith(VertxExtension.class)
class BusFailureTest {

  private static Throwable across(Vertx vertx, QuarryException raised) {
    String address = "test.fails." + java.util.UUID.randomUUID();
    Bus.serve(vertx.eventBus(), address, body -> Future.failedFuture(raised)).completion().await();
    try {
      Bus.request(vertx.eventBus(), address, new JsonObject(), Deliveries.storage()).await();
    } catch (ReplyException e) {
      return e;
    }
    throw new AssertionError("expected a failure");
  }

  @Test
  @DisplayName("a NETWORK failure carries its dataset's URL and details; its text reads as the seed's message first")
  void unreachable(Vertx vertx) {
    Throwable e = across(vertx, QuarryException.unreachable("http://127.0.0.1:1/a b.parquet", "HTTP 404"));
    BusFailure failure = BusFailure.of(e);
    assertThat(failure.failure()).isEqualTo(Failure.NETWORK);
    assertThat(failure.message()).isEqualTo("The dataset at http://127.0.0.1:1/a b.parquet is no longer accessible");
    assertThat(failure.url()).contains("http://127.0.0.1:1/a b.parquet");
    assertThat(failure.details()).isEqualTo("HTTP 404");
    assertThat(e.getMessage()).startsWith(failure.message() + "\n\n");
    assertThat(Failure.messageOf(e)).isEqualTo(failure.message());
    assertThat(Failure.detailsOf(e)).isEqualTo("HTTP 404");
  }

  @Test
  @DisplayName("a RATE_LIMITED refusal says when asking works again; a plain failure is its message alone")
  void rateLimited(Vertx vertx) {
    BusFailure limited = BusFailure.of(across(vertx, QuarryException.rateLimited("Daily token limit exceeded", 321)));
    assertThat(limited.resetsInSeconds()).hasValue(321);
    assertThat(limited.url()).isEmpty();
    Throwable plain = across(vertx, QuarryException.notFound("Conversation not found"));
    assertThat(plain.getMessage()).isEqualTo("Conversation not found");
    assertThat(BusFailure.of(plain).details()).isNull();
    assertThat(BusFailure.of(plain).resetsInSeconds()).isEmpty();
  }

  @Test
  @DisplayName("a neighbour's failure passed on keeps its fields; plain details after a blank line still read as details")
  void passedOn(Vertx vertx) {
    Throwable first = across(vertx, QuarryException.unreachable("http://127.0.0.1:1/x.parquet", "timed out"));
    Bus.serve(vertx.eventBus(), "test.passes", body -> Future.failedFuture(first)).completion().await();
    Throwable second = Bus.request(vertx.eventBus(), "test.passes", new JsonObject(), Deliveries.storage())
        .transform(reply -> Future.succeededFuture(reply.cause())).await();
    assertThat(second).isInstanceOf(ReplyException.class);
    BusFailure passed = BusFailure.of(second);
    assertThat(passed.failure()).isEqualTo(Failure.NETWORK);
    assertThat(passed.url()).contains("http://127.0.0.1:1/x.parquet");
    assertThat(passed.details()).isEqualTo("timed out");
    BusFailure legacy = BusFailure.of(new ReplyException(io.vertx.core.eventbus.ReplyFailure.RECIPIENT_FAILURE, 422,
        "Column x not found\n\nCandidate: y"));
    assertThat(legacy.message()).isEqualTo("Column x not found");
    assertThat(legacy.details()).isEqualTo("Candidate: y");
  }
}
