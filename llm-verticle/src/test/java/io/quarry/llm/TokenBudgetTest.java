package io.quarry.llm;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.Bus;
import io.quarry.bus.BusFailure;
import io.quarry.bus.Failure;
import io.quarry.bus.StorageClient;
import io.quarry.bus.StorageOps;
import io.quarry.bus.Timestamps;
import io.quarry.bus.UsageWindow;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The rolling 24-hour budget, with an injected clock and a fake storage neighbour: no sleeps. */
@ExtendWith(VertxExtension.class)
class TokenBudgetTest {

  static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");
  static final long LIMIT = 1_000;

  /** Usage rows the fake storage holds: when, and how many tokens. */
  final List<JsonObject> rows = new ArrayList<>();
  /** How many uses the fake storage listed, in all its answers. */
  long listed;

  private void used(Duration ago, long tokens) {
    rows.add(new JsonObject().put("created_at", Timestamps.format(NOW.minus(ago))).put("tokens", tokens));
  }

  private TokenBudget budgetAt(Vertx vertx, Instant now, long limit) {
    new Bus(vertx).serve(StorageOps.USAGE_WINDOW, window -> {
      String since = window.since();
      List<UsageWindow.Entry> entries = new ArrayList<>();
      long total = 0;
      for (JsonObject row : rows) {
        if (row.getString("created_at").compareTo(since) >= 0) {
          entries.add(new UsageWindow.Entry(row.getString("created_at"), row.getLong("tokens")));
          total += row.getLong("tokens");
        }
      }
      // Listed only from the total asked, as storage lists them.
      List<UsageWindow.Entry> shown = total < window.listFrom() ? List.of() : entries;
      listed += shown.size();
      return Future.succeededFuture(new UsageWindow(total, 0, null, shown));
    }).completion().await();
    return new TokenBudget(new StorageClient(vertx), limit, 100, 3, Clock.fixed(now, ZoneOffset.UTC));
  }

  private TokenBudget.Usage usageAt(Vertx vertx, Instant now) {
    return budgetAt(vertx, now, LIMIT).usage("u").await();
  }

  private static String refusal(Future<?> future) {
    return future.transform(r -> Future.succeededFuture(r.failed() ? r.cause().getMessage() : "granted")).await();
  }

  @Test
  @DisplayName("a user at the turn cap is refused with a 429 even when usage cannot be read, then with no reset time")
  void capWithoutStorage(Vertx vertx) {
    var window = new Bus(vertx).serve(StorageOps.USAGE_WINDOW,
        since -> Future.succeededFuture(new UsageWindow(0, 0, null)));
    window.completion().await();
    TokenBudget budget = new TokenBudget(new StorageClient(vertx), LIMIT, 100, 1, Clock.fixed(NOW, ZoneOffset.UTC));
    budget.hold("u").await();
    window.unregister().await();
    BusFailure refused = BusFailure.of(budget.hold("u").transform(r -> Future.succeededFuture(r.cause())).await());
    assertThat(refused.failure()).isEqualTo(Failure.RATE_LIMITED);
    assertThat(refused.message()).isEqualTo(String.format(TokenBudget.TOO_MANY_TURNS, 1));
    assertThat(refused.resetsInSeconds()).hasValue(0);
  }

  @Test
  @DisplayName("each running turn holds 100 tokens that new turns count as spent; a user runs at most 3 turns at once")
  void holds(Vertx vertx) {
    used(Duration.ofHours(1), 700);
    TokenBudget budget = budgetAt(vertx, NOW, LIMIT);
    TokenBudget.Hold first = budget.hold("u").await();
    TokenBudget.Hold second = budget.hold("u").await();
    TokenBudget.Hold third = budget.hold("u").await();
    assertThat(refusal(budget.hold("u"))).isEqualTo(String.format(TokenBudget.TOO_MANY_TURNS, 3));
    assertThat(first.allowsRequest().await()).as("700 used: the holds keep new turns out, not this one's requests")
        .isTrue();
    third.release();
    third.release();
    assertThat(refusal(budget.hold("u"))).isEqualTo("granted");
    assertThat(refusal(budget.hold("u"))).isEqualTo(String.format(TokenBudget.TOO_MANY_TURNS, 3));
    assertThat(refusal(budget.hold("someone else"))).isEqualTo("granted");
    used(Duration.ofMinutes(1), 300);
    assertThat(second.allowsRequest().await()).as("1,000 used").isFalse();
  }

  @Test
  @DisplayName("a turn is refused when the used tokens plus the running turns' holds reach the limit, saying which")
  void heldOrExceeded(Vertx vertx) {
    used(Duration.ofHours(1), 900);
    TokenBudget budget = budgetAt(vertx, NOW, LIMIT);
    budget.hold("u").await();
    assertThat(refusal(budget.hold("u"))).isEqualTo(TokenBudget.HELD);
    used(Duration.ofMinutes(1), 100);
    assertThat(refusal(budget.hold("u"))).isEqualTo(TokenBudget.EXCEEDED);
  }

  @Test
  @DisplayName("79.9 % is no warning; 80 % warns; 99.9 % still may ask; 100 % is exceeded")
  void thresholds() {
    assertThat(usage(799)).matches(u -> !u.warning() && !u.exceeded());
    assertThat(usage(800)).matches(u -> u.warning() && !u.exceeded());
    assertThat(usage(999)).matches(u -> u.warning() && !u.exceeded() && u.resetsInSeconds() == 0);
    assertThat(usage(1000)).matches(TokenBudget.Usage::exceeded);
    JsonObject json = usage(800).report().toJson();
    assertThat(json.getLong("tokens_used")).isEqualTo(800);
    assertThat(json.getLong("remaining")).isEqualTo(200);
    assertThat(json.getDouble("usage_percent")).isEqualTo(80.0);
  }

  private static TokenBudget.Usage usage(long used) {
    return TokenBudget.Usage.of(new UsageWindow(used, 0, null,
        List.of(new UsageWindow.Entry(Timestamps.format(NOW.minusSeconds(60)), used))), LIMIT, NOW);
  }

  @Test
  @DisplayName("resets_in_seconds is when enough old usage has left the window to be under the limit")
  void resetTime(Vertx vertx) {
    used(Duration.ofHours(23), 300);   // leaves in 1 h
    used(Duration.ofHours(20), 400);   // leaves in 4 h
    used(Duration.ofHours(1), 400);
    TokenBudget.Usage usage = usageAt(vertx, NOW);
    assertThat(usage.used()).isEqualTo(1_100);
    assertThat(usage.exceeded()).isTrue();
    // After the first row leaves, 800 remain: under the limit. That is one hour from now.
    assertThat(usage.resetsInSeconds()).isEqualTo(3_600);
  }

  @Test
  @DisplayName("storage lists a user's uses only once they reach the limit: exactly at it, the reset time is known")
  void listedAtLimit(Vertx vertx) {
    used(Duration.ofHours(23), 300);
    used(Duration.ofHours(1), 699);
    TokenBudget budget = budgetAt(vertx, NOW, LIMIT);
    assertThat(budget.usage("u").await().exceeded()).isFalse();
    assertThat(budget.hold("u").await()).isNotNull();
    assertThat(listed).as("uses listed under the limit").isZero();
    used(Duration.ofMinutes(1), 1);
    TokenBudget.Usage usage = budget.usage("u").await();
    assertThat(usage.exceeded()).isTrue();
    assertThat(usage.resetsInSeconds()).isEqualTo(3_600);
    assertThat(listed).isEqualTo(3);
  }

  @Test
  @DisplayName("once the oldest usage leaves the 24-hour window, asking works again")
  void windowSlides(Vertx vertx) {
    used(Duration.ofHours(23).plusMinutes(59), 600);
    used(Duration.ofHours(2), 400);
    assertThat(usageAt(vertx, NOW).exceeded()).isTrue();
    TokenBudget.Usage later = usageAt(vertx, NOW.plus(Duration.ofMinutes(2)));
    assertThat(later.used()).isEqualTo(400);
    assertThat(later.exceeded()).isFalse();
  }
}
