package io.quarry.bus;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.internal.ContextInternal;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Requests that any node of a role may serve, sent again when the node serving one may have died. The bus gives no
 * sign of that: a request sent to a member killed under it waits for its whole timeout, and one sent in the moment
 * before the cluster saw it go may never be written. So a request is sent again, to whichever node the bus picks
 * now, when it times out or finds nobody listening, and at once when a member leaves the cluster
 * ({@link Addresses#CLUSTER_MEMBER_LEFT}) — the bus cannot say which member a request went to, so every request in
 * flight then is sent again, and again while the cluster may still send to the member that left
 * ({@link #AFTER_DEPARTURE_MS}); the first answer wins, a receiver's failure as much as its reply. Only for
 * requests whose receivers make a second delivery harmless (the same ids, the same outcome).
 *
 * <p>Its state is confined to the event loop of the context that made it, like a verticle's: a request made from
 * anywhere else hops there first, so its tries, replies and the departures it hears all run on that one thread.
 */
final class Failover {

  /** Tries in all, the first included. */
  static final int ATTEMPTS = 3;
  /** Before a try after nobody listened: a node of the role may be starting or the cluster settling. */
  static final long NO_HANDLERS_PAUSE_MS = 500;
  /**
   * When a request still unanswered after a member left is sent again, counted from the departure: at once; when the
   * cluster has usually stopped sending to the member (until every member has dropped its consumers the bus picks it
   * as before, and what it sends there is lost without a word: a refused connection fails no request); and once more
   * after the oldest member's sweep of registrations the departure left behind (2 s after it, in the app's
   * StaleRegistrations) has reached every node. FailoverIT saw a result's save sent to a killed storage node at the
   * departure and again 2 s later, both lost, and the answer named a result never stored.
   */
  static final long[] AFTER_DEPARTURE_MS = {0, 2_000, 5_000};

  private final Vertx vertx;
  private final EventBus bus;
  private final ContextInternal context;
  private final Set<Request> inFlight = new HashSet<>();

  /** Made on the context of the verticle that uses it: its consumer of member departures goes when that verticle does. */
  Failover(Vertx vertx) {
    this(vertx, AFTER_DEPARTURE_MS);
  }

  /** With its own moments to send again after a departure (a test's, shorter). */
  Failover(Vertx vertx, long[] afterDepartureMs) {
    this.vertx = vertx;
    this.bus = vertx.eventBus();
    this.context = (ContextInternal) vertx.getOrCreateContext();
    context.runOnContext(v -> bus.localConsumer(Addresses.CLUSTER_MEMBER_LEFT, left -> {
      for (long delay : afterDepartureMs) {
        if (delay == 0) {
          resendAll();
        } else {
          vertx.setTimer(delay, t -> resendAll());
        }
      }
    }));
  }

  /**
   * Sent at once from this event loop (the verticle's own context, or one request's duplicate of it: the reply is then
   * handled there, with the request's log fields); from anywhere else, on a context of this event loop that carries
   * the caller's log fields.
   */
  Future<Object> request(String address, Object body, DeliveryOptions options, Resend policy) {
    Request request = new Request(address, body, options, policy);
    if (Vertx.currentContext() instanceof ContextInternal caller && caller.unwrap() == context.unwrap()
        && Context.isOnEventLoopThread()) {
      request.send();
    } else {
      Map<String, String> fields = LogContext.current();
      context.duplicate().runOnContext(v -> {
        fields.forEach(LogContext::put);
        request.send();
      });
    }
    return request.answer.future();
  }

  private void resendAll() {
    for (Request request : List.copyOf(inFlight)) {
      request.resend();
    }
  }

  /** One request and its tries; the first answer settles it. */
  private final class Request {
    final String address;
    final Object body;
    final DeliveryOptions options;
    final Resend policy;
    final Promise<Object> answer = Promise.promise();
    /** Tries made; tries still unanswered. */
    int tries;
    int pending;
    boolean unanswered;

    Request(String address, Object body, DeliveryOptions options, Resend policy) {
      this.address = address;
      this.body = body;
      this.options = options;
      this.policy = policy;
    }

    void send() {
      tries++;
      pending++;
      inFlight.add(this);
      bus.request(address, body, new DeliveryOptions(options.toJson())).map(Message::body)
          .onComplete(ar -> settled(ar.succeeded() ? null : ar.cause(), ar.result()));
    }

    /**
     * A member left: one more try beside those in flight. Not bounded by {@link #ATTEMPTS}, which bounds tries after
     * timeouts: a departure's tries are bounded by {@link #AFTER_DEPARTURE_MS}, and departures are few.
     */
    void resend() {
      if (!answer.future().isComplete()) {
        send();
      }
    }

    private void settled(Throwable failure, Object reply) {
      pending--;
      boolean last = pending == 0;
      unanswered |= failure != null && infrastructure(failure);
      boolean retry = last && failure != null && infrastructure(failure) && tries < ATTEMPTS
          && (policy != Resend.NOT_ON_TIMEOUT || ((ReplyException) failure).failureType() == ReplyFailure.NO_HANDLERS);
      if (last) {
        inFlight.remove(this);
      }
      if (failure == null) {
        answer.tryComplete(reply);
      } else if (!infrastructure(failure) && policy != Resend.REMOVAL) {
        // A receiver's own failure is an answer too: the first one settles it, whatever a later try would say (a try
        // sent again at a member's departure may meet a worker killed for the first try's silence).
        answer.tryFail(failure);
      } else if (policy == Resend.REMOVAL && unanswered && Failure.classify(failure) == Failure.NOT_FOUND) {
        answer.tryComplete(null);
      } else if (retry) {
        long pause = ((ReplyException) failure).failureType() == ReplyFailure.NO_HANDLERS ? NO_HANDLERS_PAUSE_MS : 1;
        vertx.setTimer(pause, t -> send());
      } else if (last) {
        answer.tryFail(failure);
      }
    }
  }

  /** A timeout or nobody listening: the node may have died, or none serves the address yet. */
  static boolean infrastructure(Throwable failure) {
    return failure instanceof ReplyException re && (re.failureType() == ReplyFailure.TIMEOUT || re.failureType() == ReplyFailure.NO_HANDLERS);
  }
}
