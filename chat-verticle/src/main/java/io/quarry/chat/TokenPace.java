package io.quarry.chat;

import io.quarry.bus.QuarryException;
import io.quarry.bus.StorageOps.TokenUser;
import io.vertx.core.Future;
import io.vertx.ext.web.RoutingContext;
import java.util.function.LongSupplier;

/**
 * A per-token limit on requests, beside its user's budgets (changes, questions, tokens a day): {@code
 * chat.tokenBurst} at once, then {@code chat.tokenRequestsPerMinute}, counted by token id on this web node. One leaked or runaway token slows
 * down alone; the user's other tokens and their browser are not held back by it. Every door that takes tokens asks
 * {@link #check} once a request (REST, the bridge, the WebSocket's upgrade, MCP); past the limit the answer is
 * RATE_LIMITED (429 with {@code Retry-After}) naming the limit.
 */
final class TokenPace {

  private static final int MAX_TOKENS = 100_000;

  private final Buckets buckets;
  private final int perMinute;
  private final int burst;

  TokenPace(LongSupplier clock, int perMinute, int burst) {
    this.buckets = new Buckets(clock, perMinute, burst, MAX_TOKENS);
    this.perMinute = perMinute;
    this.burst = burst;
  }

  /** The token, when it may make one more request now; else RATE_LIMITED saying when it may. */
  Future<TokenUser> check(TokenUser token) {
    long waitMs = buckets.take(token.tokenId());
    if (waitMs == 0) {
      return Future.succeededFuture(token);
    }
    long seconds = Buckets.seconds(waitMs);
    return Future.failedFuture(QuarryException.rateLimited(message(seconds), seconds));
  }

  /** Handler after {@link Auth#handle}: a request made with a token draws on its pace; one with a session does not. */
  void handle(RoutingContext ctx) {
    TokenUser token = Auth.token(ctx);
    if (token == null) {
      ctx.next();
      return;
    }
    long waitMs = buckets.take(token.tokenId());
    if (waitMs == 0) {
      ctx.next();
      return;
    }
    long seconds = Buckets.seconds(waitMs);
    ctx.response().putHeader("Retry-After", String.valueOf(seconds));
    HttpErrors.send(ctx, 429, message(seconds), null);
  }

  private String message(long seconds) {
    return "Too many requests with this token: it may make " + perMinute + " a minute after a burst of " + burst
        + " (chat.tokenRequestsPerMinute, chat.tokenBurst); try again in " + seconds
        + (seconds == 1 ? " second" : " seconds");
  }
}
