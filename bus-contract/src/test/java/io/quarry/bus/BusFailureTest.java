package io.quarry.bus;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** A failure's structured fields cross the bus with it, and are read back in one place. */
@ExtendWith(VertxExtension.class)
class BusFailureTest {

  private static Operation<Void, Void> op(String address) {
    return Operation.of(address, Codec.NONE, Codec.NONE, Deliveries.STORAGE_TIMEOUT_MS, Resend.NEVER);
  }

  private static Throwable across(Vertx vertx, Throwable raised) {
    Operation<Void, Void> fails = op("test.fails." + java.util.UUID.randomUUID());
    Bus bus = new Bus(vertx);
    bus.serve(fails, none -> Future.failedFuture(raised)).completion().await();
    return fails.call(bus, null).transform(reply -> Future.succeededFuture(reply.cause())).await();
  }

  @Test
  @DisplayName("a NETWORK failure carries its dataset's URL and details; its message is the seed's message alone")
  void unreachable(Vertx vertx) {
    Throwable e = across(vertx, QuarryException.unreachable("http://127.0.0.1:1/a b.parquet", "HTTP 404"));
    BusFailure failure = BusFailure.of(e);
    assertThat(failure.failure()).isEqualTo(Failure.NETWORK);
    assertThat(failure.message()).isEqualTo("The dataset at http://127.0.0.1:1/a b.parquet is no longer accessible");
    assertThat(failure.url()).contains("http://127.0.0.1:1/a b.parquet");
    assertThat(failure.details()).isEqualTo("HTTP 404");
    assertThat(e.getMessage()).isEqualTo(failure.message());
    assertThat(((ReplyException) e).failureCode()).isEqualTo(502);
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
  @DisplayName("a neighbour's failure passed on keeps its fields; a subclass of it crosses as itself")
  void passedOn(Vertx vertx) {
    Throwable first = across(vertx, QuarryException.unreachable("http://127.0.0.1:1/x.parquet", "timed out"));
    BusFailure passed = BusFailure.of(across(vertx, first));
    assertThat(passed.failure()).isEqualTo(Failure.NETWORK);
    assertThat(passed.url()).contains("http://127.0.0.1:1/x.parquet");
    assertThat(passed.details()).isEqualTo("timed out");
    QuarryException special = new QuarryException(Failure.RATE_LIMITED, "Too many", new JsonObject()
        .put(BusFailure.RESETS_IN_SECONDS, 7)) { };
    assertThat(BusFailure.of(across(vertx, special)).resetsInSeconds()).hasValue(7);
  }

  @Test
  @DisplayName("between nodes a failure is JSON text that any reader parses: code, message and its fields")
  void onTheWire() {
    FailureCodec codec = new FailureCodec();
    Buffer wire = Buffer.buffer();
    codec.encodeToWire(wire, QuarryException.unreachable("http://127.0.0.1:1/y.parquet", "HTTP 500"));
    JsonObject json = new JsonObject(wire.getBuffer(4, wire.length()));
    assertThat(json.getInteger("code")).isEqualTo(502);
    assertThat(json.getString("message")).isEqualTo("The dataset at http://127.0.0.1:1/y.parquet is no longer accessible");
    assertThat(json.getString("url")).isEqualTo("http://127.0.0.1:1/y.parquet");
    QuarryException back = codec.decodeFromWire(0, wire);
    assertThat(back.failureType()).isEqualTo(ReplyFailure.RECIPIENT_FAILURE);
    assertThat(BusFailure.of(back)).isEqualTo(BusFailure.of(QuarryException.unreachable("http://127.0.0.1:1/y.parquet",
        "HTTP 500")));
  }
}
