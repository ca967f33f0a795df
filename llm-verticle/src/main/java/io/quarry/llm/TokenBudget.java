package io.quarry.llm;

import io.quarry.bus.StorageClient;
import io.quarry.bus.Timestamps;
import io.quarry.bus.UsageWindow;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/** Each user's tokens over a rolling 24 hours, against a limit (SPEC §10). */
final class TokenBudget {

  static final Duration WINDOW = Duration.ofHours(24);
  static final int WARNING_PERCENT = 80;

  /**
   * @param resetsInSeconds when enough usage will have left the window to be under the limit again (0 if under)
   */
  record Usage(long used, long limit, long resetsInSeconds) {

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

    JsonObject toJson() {
      return new JsonObject()
          .put("tokens_used", used)
          .put("token_limit", limit)
          .put("remaining", Math.max(0, limit - used))
          .put("usage_percent", Math.round(percent() * 10) / 10.0)
          .put("resets_in_seconds", resetsInSeconds);
    }

    static Usage of(UsageWindow window, long limit, Instant now) {
      long used = window.total();
      long resets = 0;
      if (used >= limit) {
        long remaining = used;
        for (Object item : window.entries()) {
          JsonObject entry = (JsonObject) item;
          remaining -= entry.getLong("tokens", 0L);
          if (remaining < limit) {
            Instant leaves = Timestamps.parse(entry.getString("created_at")).plus(WINDOW);
            resets = Math.max(1, (long) Math.ceil(Duration.between(now, leaves).toMillis() / 1000.0));
            break;
          }
        }
      }
      return new Usage(used, limit, resets);
    }
  }

  private final StorageClient storage;
  private final long limit;
  private final Clock clock;

  TokenBudget(StorageClient storage, long limit, Clock clock) {
    this.storage = storage;
    this.limit = limit;
    this.clock = clock;
  }

  Future<Usage> usage(String userId) {
    Instant now = clock.instant();
    return storage.usageSince(userId, Timestamps.format(now.minus(WINDOW))).map(w -> Usage.of(w, limit, now));
  }
}
