package io.quarry.bus;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Requests that any node of a role may serve, sent again when the node serving one may have died. The bus gives no
 * sign of that: a request sent to a member killed under it waits for its whole timeout, and one sent in the moment
 * before the cluster saw it go may never be written. So a request is sent again, to whichever node the bus picks
 * now, when it times out or finds nobody listening, and at once when a member leaves the cluster
 * ({@link Addresses#CLUSTER_MEMBER_LEFT}) — the bus cannot say which member a request went to, so every request in
 * flight then is sent again, and the first answer wins. Only for requests whose receivers make a second delivery
 * harmless (the same ids, the same outcome).
 */
public final class Failover {

  /** Tries in all, the first included. */
  public static final int ATTEMPTS = 3;
  /** Before a try after nobody listened: a node of the role may be starting or the cluster settling. */
  static final long NO_HANDLERS_PAUSE_MS = 500;

  /** What a failed try means. */
  public enum Policy {
    /** A timeout or nobody listening may be a dead node: try again, as at a member's departure. */
    IDEMPOTENT,
    /** As {@link #IDEMPOTENT}, and NOT_FOUND after a try that got no answer means the earlier try did the work. */
    REMOVAL,
    /**
     * Long requests (a query), whose timeout says they ran too long, not that their node died: sent again only when
     * nobody listened or a member left.
     */
    NOT_ON_TIMEOUT
  }

  private final Vertx vertx;
  private final EventBus bus;
  private final Set<Request> inFlight = ConcurrentHashMap.newKeySet();

  /** Call from the verticle that uses it: its consumer of member departures goes when that verticle does. */
  public Failover(Vertx vertx) {
    this.vertx = vertx;
    this.bus = vertx.eventBus();
    bus.<JsonObject>localConsumer(Addresses.CLUSTER_MEMBER_LEFT, left -> resendAll());
  }

  public Future<JsonObject> request(String address, JsonObject body, DeliveryOptions options, Policy policy) {
    Request request = new Request(address, body, options, policy);
    request.send();
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
    final JsonObject body;
    final DeliveryOptions options;
    final Policy policy;
    final Promise<JsonObject> answer = Promise.promise();
    /** Tries made; tries still unanswered. Guarded by this. */
    int tries;
    int pending;
    boolean unanswered;

    Request(String address, JsonObject body, DeliveryOptions options, Policy policy) {
      this.address = address;
      this.body = body;
      this.options = options;
      this.policy = policy;
    }

    void send() {
      synchronized (this) {
        tries++;
        pending++;
      }
      inFlight.add(this);
      bus.<JsonObject>request(address, body, new DeliveryOptions(options.toJson())).map(Message::body)
          .onComplete(ar -> settled(ar.succeeded() ? null : ar.cause(), ar.result()));
    }

    /** A member left: one more try beside the one in flight, if tries remain. */
    void resend() {
      synchronized (this) {
        if (answer.future().isComplete() || tries >= ATTEMPTS) {
          return;
        }
      }
      send();
    }

    private void settled(Throwable failure, JsonObject reply) {
      boolean last;
      boolean retry;
      synchronized (this) {
        pending--;
        last = pending == 0;
        unanswered |= failure != null && infrastructure(failure);
        retry = last && failure != null && infrastructure(failure) && tries < ATTEMPTS
            && (policy != Policy.NOT_ON_TIMEOUT || ((ReplyException) failure).failureType() == ReplyFailure.NO_HANDLERS);
      }
      if (last) {
        inFlight.remove(this);
      }
      if (failure == null) {
        answer.tryComplete(reply);
      } else if (policy == Policy.REMOVAL && unanswered && Failure.classify(failure) == Failure.NOT_FOUND) {
        answer.tryComplete(new JsonObject());
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
    return failure instanceof ReplyException re && (re.failureType() == ReplyFailure.TIMEOUT
        || re.failureType() == ReplyFailure.NO_HANDLERS);
  }
}
