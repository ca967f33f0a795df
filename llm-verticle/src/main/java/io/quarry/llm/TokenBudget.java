package io.quarry.llm;

import io.quarry.bus.BusFailure;
import io.quarry.bus.Failure;
import io.quarry.bus.LlmOps;
import io.quarry.bus.QuarryException;
import io.quarry.bus.StorageClient;
import io.quarry.bus.Timestamps;
import io.quarry.bus.UsageWindow;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * Each user's tokens over a rolling 24 hours, against a limit (SPEC §10). Usage is recorded only after each
 * model response, so turns started together would all see the same old total: each running turn holds a
 * reservation that new turns count as spent, a user runs at most {@code maxTurns} at once, and every model
 * request is checked again, so the limit is overshot by at most the requests already under way.
 */
final class TokenBudget {

  static final String EXCEEDED = "Daily token limit exceeded";
  static final String TOO_MANY_TURNS = "You already have %d answers being written; wait for one to finish";
  static final String HELD = "Your answers being written may use up today's remaining tokens; wait for them to finish";

  static final Duration WINDOW = Duration.ofHours(24);
  static final int WARNING_PERCENT = 80;

  /**
   * @param resetsInSeconds when enough usage will have left the window to be under the limit again (0 if under)
   */
  record Usage(long used, long limit, long resetsInSeconds, boolean estimated) {

    boolean exceeded() {
      return used >= limit;
    }

    /** At or above 80 %: integer arithmetic, so 79.9 % is not a warning and 80 % is. */
    boolean warning() {
      return used * 100 >= limit * WARNING_PERCENT;
    }

    double percent() {
      return limit == 0 ? 100.0 : used * 100.0 / limit;
    }

    /** As {@code /api/usage} shows it: the percentage to one decimal. */
    LlmOps.Budget report() {
      return new LlmOps.Budget(used, limit, Math.max(0, limit - used), Math.round(percent() * 10) / 10.0,
          resetsInSeconds, estimated);
    }

    static Usage of(UsageWindow window, long limit, Instant now) {
      long used = window.total();
      long resets = 0;
      if (used >= limit) {
        long remaining = used;
        for (UsageWindow.Entry entry : window.entries()) {
          remaining -= entry.tokens();
          if (remaining < limit) {
            Instant leaves = Timestamps.parse(entry.createdAt()).plus(WINDOW);
            resets = Math.max(1, (long) Math.ceil(Duration.between(now, leaves).toMillis() / 1000.0));
            break;
          }
        }
      }
      return new Usage(used, limit, resets, window.estimated());
    }
  }

  /** The limit is reached: a RATE_LIMITED failure that knows when asking works again. */
  static final class Exceeded extends QuarryException {
    final long resetsInSeconds;

    Exceeded(long resetsInSeconds) {
      super(Failure.RATE_LIMITED, EXCEEDED, new JsonObject().put(BusFailure.RESETS_IN_SECONDS, resetsInSeconds));
      this.resetsInSeconds = resetsInSeconds;
    }
  }

  /** One running turn's claim on its user's budget, given back when the turn ends. */
  final class Hold {
    private final String userId;
    private boolean released;

    private Hold(String userId) {
      this.userId = userId;
    }

    /**
     * May the next request go: is the recorded usage, this user's other turns' included, under the limit?
     * (Holds keep new turns out; counted here they would end a running turn for a question that is refused.)
     */
    Future<Boolean> allowsRequest() {
      return usage(userId).map(u -> !u.exceeded());
    }

    void release() {
      if (!released) {
        released = true;
        holds.computeIfPresent(userId, (k, n) -> n == 1 ? null : n - 1);
      }
    }
  }

  private final StorageClient storage;
  private final long limit;
  private final long reserveTokens;
  private final int maxTurns;
  private final Clock clock;
  /** Running turns per user, each holding reserveTokens; the verticle's event loop owns it. */
  private final Map<String, Integer> holds = new HashMap<>();

  TokenBudget(StorageClient storage, long limit, long reserveTokens, int maxTurns, Clock clock) {
    this.storage = storage;
    this.limit = limit;
    this.reserveTokens = reserveTokens;
    this.maxTurns = maxTurns;
    this.clock = clock;
  }

  /**
   * A hold for a new turn, or a RATE_LIMITED failure: too many turns running, or the used tokens plus what
   * the running turns hold reach the limit. The hold is taken before usage is read, so turns started
   * together see each other.
   */
  Future<Hold> hold(String userId) {
    int running = holds.getOrDefault(userId, 0);
    if (running >= maxTurns) {
      // The refusal stands even when usage cannot be read: it then cannot say when the budget resets.
      return usage(userId).transform(read -> Future.failedFuture(QuarryException.rateLimited(
          String.format(TOO_MANY_TURNS, maxTurns), read.succeeded() ? read.result().resetsInSeconds() : 0)));
    }
    holds.put(userId, running + 1);
    Hold hold = new Hold(userId);
    return usage(userId).transform(read -> {
      if (read.succeeded() && read.result().used() + running * reserveTokens < limit) {
        return Future.succeededFuture(hold);
      }
      hold.release();
      if (read.failed()) {
        return Future.failedFuture(read.cause());
      }
      Usage usage = read.result();
      return Future.failedFuture(usage.exceeded() ? new Exceeded(usage.resetsInSeconds())
          : QuarryException.rateLimited(HELD, usage.resetsInSeconds()));
    });
  }

  /** Why a hold was refused, as {@code quarry_budget_rejections_total} counts it; null for no refusal of the budget's. */
  static String reason(Throwable refusal) {
    String message = String.valueOf(refusal.getMessage());
    return refusal instanceof Exceeded ? "daily_limit" : message.startsWith(HELD) ? "held"
        : message.startsWith(TOO_MANY_TURNS.substring(0, TOO_MANY_TURNS.indexOf('%'))) ? "too_many_turns" : null;
  }

  Future<Usage> usage(String userId) {
    Instant now = clock.instant();
    // Each use is listed only for a user at the limit, to tell when enough of it leaves the window.
    return storage.usageSince(userId, Timestamps.format(now.minus(WINDOW)), limit).map(w -> Usage.of(w, limit, now));
  }
}
