package io.quarry.bus;

import io.vertx.core.Future;

/**
 * One request/reply on the bus, held alike by its caller ({@link #call}) and its receiver ({@link Bus#serve}): its
 * address, what it asks and answers, how long a caller waits and whether it may be sent again. A failure arrives as a
 * {@link QuarryException} whose fields crossed the cluster with it.
 *
 * @param timeoutMs how long a caller waits for the reply, unless it says otherwise
 */
public record Operation<Q, R>(String address, Codec<Q> request, Codec<R> reply, long timeoutMs, Resend resend) {

  public static <Q, R> Operation<Q, R> of(String address, Codec<Q> request, Codec<R> reply, long timeoutMs,
      Resend resend) {
    return new Operation<>(address, request, reply, timeoutMs, resend);
  }

  public Future<R> call(Bus bus, Q request) {
    return bus.call(this, request, timeoutMs);
  }

  /** With an explicit wait, e.g. a query's, which depends on its time limit. */
  public Future<R> call(Bus bus, Q request, long waitMs) {
    return bus.call(this, request, waitMs);
  }
}
