package io.quarry.bus.net;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeoutException;

/**
 * A time limit over several HTTP exchanges: when it expires, every request it tracks is reset, so a
 * stalled server never holds a step past its limit. Used from one event-loop context only.
 */
public final class Deadline {

  private final Vertx vertx;
  private final long timerId;
  private final long millis;
  private final long startedNanos = System.nanoTime();
  private final List<HttpClientRequest> requests = new ArrayList<>();
  private boolean expired;

  public Deadline(Vertx vertx, long millis) {
    this.vertx = vertx;
    this.millis = millis;
    this.timerId = vertx.setTimer(millis, id -> expire());
  }

  /** What is left of the limit (at least 1 ms), for a wait that is not an HTTP exchange, such as a bus request. */
  public long remainingMs() {
    return Math.max(1, millis - (System.nanoTime() - startedNanos) / 1_000_000);
  }

  public long millis() {
    return millis;
  }

  /** Ends the work under this limit now, as its expiry would: what it waits for is no longer wanted. */
  public void cancel() {
    vertx.cancelTimer(timerId);
    expire();
  }

  private void expire() {
    expired = true;
    // A reset can end the step at once, and its close clears the list: reset a copy.
    List<HttpClientRequest> pending = List.copyOf(requests);
    requests.clear();
    pending.forEach(r -> r.reset(0, new TimeoutException("Timed out after " + millis + " ms")));
  }

  /** Resets {@code request} when this limit expires: also one begun under another limit whose body is read under this. */
  public void track(HttpClientRequest request) {
    if (expired) {
      request.reset(0, new TimeoutException("Timed out after " + millis + " ms"));
    } else {
      requests.add(request);
    }
  }

  /** Ends the deadline; its outcome is {@code result}, or a {@link TimeoutException} if it expired first. */
  public <T> Future<T> close(Future<T> result) {
    return result.transform(ar -> {
      vertx.cancelTimer(timerId);
      requests.clear();
      if (expired) {
        return Future.failedFuture(new TimeoutException("Timed out after " + millis + " ms"));
      }
      return ar.succeeded() ? Future.succeededFuture(ar.result()) : Future.failedFuture(ar.cause());
    });
  }
}
