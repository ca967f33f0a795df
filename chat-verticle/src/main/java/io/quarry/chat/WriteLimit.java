package io.quarry.chat;

import io.quarry.bus.QuarryException;
import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.RoutingContext;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * A per-user token bucket on the API's changes (POST, PATCH, PUT, DELETE): {@code writeBurst} at once, then
 * {@code writesPerMinute}. A person never meets it; a script that piles things up does, with 429 and
 * {@code Retry-After}. SQL runs ({@code /query}) change nothing and have their own queue, so they are not counted.
 * The public bus operations' changes draw on the same buckets.
 */
final class WriteLimit {

  private static final Set<HttpMethod> WRITES = Set.of(HttpMethod.POST, HttpMethod.PATCH, HttpMethod.PUT,
      HttpMethod.DELETE);
  private static final int MAX_USERS = 100_000;

  private final Buckets buckets;

  WriteLimit(LongSupplier clock, int perMinute, int burst) {
    this.buckets = new Buckets(clock, perMinute, burst, MAX_USERS);
  }

  void handle(RoutingContext ctx) {
    if (!WRITES.contains(ctx.request().method()) || ctx.request().path().endsWith("/query")) {
      ctx.next();
      return;
    }
    long waitMs = take(Auth.user(ctx).id());
    if (waitMs == 0) {
      ctx.next();
      return;
    }
    long seconds = seconds(waitMs);
    ctx.response().putHeader("Retry-After", String.valueOf(seconds));
    HttpErrors.send(ctx, 429, message(seconds), null);
  }

  /**
   * The same budget for a change made over the bus ({@link BusApi}): the change, or RATE_LIMITED with when to try
   * again.
   */
  <T> Future<T> change(String userId, Supplier<Future<T>> change) {
    long waitMs = take(userId);
    if (waitMs == 0) {
      return change.get();
    }
    long seconds = seconds(waitMs);
    return Future.failedFuture(QuarryException.rateLimited(message(seconds), seconds));
  }

  private static long seconds(long waitMs) {
    return Buckets.seconds(waitMs);
  }

  private static String message(long seconds) {
    return "Too many changes in a short time; try again in " + seconds + (seconds == 1 ? " second" : " seconds");
  }

  /** Takes one token; when there is none, how long until there is. */
  private long take(String userId) {
    return buckets.take(userId);
  }
}
