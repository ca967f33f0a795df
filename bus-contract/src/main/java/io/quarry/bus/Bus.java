package io.quarry.bus;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.eventbus.ReplyException;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The two halves of every {@link Operation}: {@link #serve} binds a receiver that takes the request record and
 * answers a future of the reply record; {@link Operation#call} sends it from a caller. One per verticle, made in its
 * {@code start()}: requests that may be sent again ({@link Resend}) are followed from that verticle's event loop.
 */
public final class Bus {

  private static final Logger log = LoggerFactory.getLogger(Bus.class);

  private final EventBus eventBus;
  private final Failover failover;

  public Bus(Vertx vertx) {
    this.eventBus = vertx.eventBus();
    this.failover = new Failover(vertx);
    FailureCodec.register(eventBus);
  }

  public EventBus eventBus() {
    return eventBus;
  }

  /** Serves {@code op} wherever in the cluster it is asked. */
  public <Q, R> MessageConsumer<Object> serve(Operation<Q, R> op, Function<Q, Future<R>> receiver) {
    return bind(eventBus.consumer(op.address()), op, receiver);
  }

  /** Serves {@code op} to this process only (a node's own workers, its drain). */
  public <Q, R> MessageConsumer<Object> serveLocal(Operation<Q, R> op, Function<Q, Future<R>> receiver) {
    return bind(eventBus.localConsumer(op.address()), op, receiver);
  }

  /**
   * A {@link QuarryException} reaches the caller as raised, fields and all; any other failure is logged here and
   * reaches the caller as a generic internal error, never a stack trace.
   */
  private static <Q, R> MessageConsumer<Object> bind(MessageConsumer<Object> consumer, Operation<Q, R> op,
      Function<Q, Future<R>> receiver) {
    return consumer.handler(msg -> {
      Future<R> reply;
      try {
        reply = receiver.apply(decoded(op, msg.body()));
      } catch (RuntimeException e) {
        reply = Future.failedFuture(e);
      }
      reply.onComplete(ar -> {
        if (ar.succeeded()) {
          msg.reply(op.reply().encode(ar.result()));
        } else {
          fail(msg, op.address(), ar.cause());
        }
      });
    });
  }

  /** A request whose fields are not of their types (a number for a text) is the sender's mistake, not a bug here. */
  private static <Q> Q decoded(Operation<Q, ?> op, Object body) {
    try {
      return op.request().decode(body);
    } catch (ClassCastException e) {
      throw QuarryException.badRequest("A field of the request is not of its type (" + op.address() + ")");
    }
  }

  private static void fail(Message<Object> msg, String address, Throwable cause) {
    if (cause instanceof QuarryException qe) {
      msg.reply(qe.asSent());
    } else if (cause instanceof ReplyException re) {
      // A neighbour's infrastructure failure (a timeout, nobody listening) passes on as its code.
      msg.fail(Failure.classify(re).code(), re.getMessage());
    } else {
      log.error("{} failed", address, cause);
      msg.fail(Failure.INTERNAL.code(), "Internal error");
    }
  }

  <Q, R> Future<R> call(Operation<Q, R> op, Q request, long waitMs) {
    Object body = op.request().encode(request);
    DeliveryOptions options = Deliveries.within(waitMs);
    Future<Object> reply = op.resend() == Resend.NEVER
        ? eventBus.request(op.address(), body, options).map(Message::body)
        : failover.request(op.address(), body, options, op.resend());
    return reply.map(op.reply()::decode);
  }
}
