package io.quarry.bus;

import io.vertx.core.Future;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The two halves of every request/reply on the bus. {@link #serve} binds a handler that returns a
 * future and turns its failure into {@code msg.fail(code, text)}; {@link #request} is its caller.
 */
public final class Bus {

  private static final Logger log = LoggerFactory.getLogger(Bus.class);

  private Bus() {
  }

  /**
   * Binds {@code handler} to {@code address}. A {@link QuarryException} becomes its code and message; any other
   * failure is logged here and reaches the caller as a generic internal error, never a stack trace.
   */
  public static MessageConsumer<JsonObject> serve(EventBus bus, String address, Function<JsonObject, Future<?>> handler) {
    return bus.consumer(address, msg -> {
      Future<?> result;
      try {
        result = handler.apply(msg.body() == null ? new JsonObject() : msg.body());
      } catch (RuntimeException e) {
        result = Future.failedFuture(e);
      }
      result.onComplete(ar -> {
        if (ar.succeeded()) {
          msg.reply(ar.result());
        } else {
          fail(msg, address, ar.cause());
        }
      });
    });
  }

  private static void fail(Message<JsonObject> msg, String address, Throwable cause) {
    if (cause instanceof QuarryException qe) {
      msg.fail(qe.failure().code(), BusFailure.encode(qe));
    } else if (cause instanceof io.vertx.core.eventbus.ReplyException re) {
      // A neighbour's failure passes through unchanged so the edge still sees its code.
      msg.fail(Failure.classify(re).code(), re.getMessage());
    } else {
      log.error("{} failed", address, cause);
      msg.fail(Failure.INTERNAL.code(), "Internal error");
    }
  }

  public static Future<JsonObject> request(EventBus bus, String address, JsonObject body, DeliveryOptions options) {
    return bus.<JsonObject>request(address, body, options).map(Message::body);
  }

  /** Wraps a list reply so that every reply body is a JSON object. */
  public static JsonObject items(JsonArray items) {
    return new JsonObject().put(Keys.ITEMS, items);
  }
}
