package io.quarry.llm;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.Failure;
import io.quarry.bus.LlmOps.TurnStarted;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.core.shareddata.AsyncMap;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two llm nodes claim one conversation at the same moment, the registry's answer to the winner still on its way (as a
 * loaded node hears a clustered map's answers late): exactly one question is taken, the other is 409, every time.
 */
@ExtendWith(VertxExtension.class)
class TurnClaimRaceTest {

  /** How late a node hears that its claim went in. */
  static final long LATE_MS = 200;

  Vertx vertx;
  TurnHarness turn;

  @BeforeEach
  void start(Vertx vertx) {
    this.vertx = vertx;
    turn = new TurnHarness(vertx, new JsonObject(), map -> new LateClaims(vertx, map), ModelSettings.GEMINI,
        "node-a", "node-b");
  }

  @AfterEach
  void stop() {
    turn.close();
  }

  @Test
  @DisplayName("two questions at once on two llm nodes, 20 times over: one is answered and the other gets 409"
      + " 'Generation already in progress', never both")
  void oneClaimWins() throws Exception {
    for (int round = 0; round < 20; round++) {
      String conversation = turn.storage.seedConversation(TurnHarness.USER, "Race " + round).await().id();
      turn.model.next().answer("One answer.");
      List<Future<TurnStarted>> both = List.of(turn.llm.start(TurnHarness.USER, conversation, "First"),
          turn.llm.start(TurnHarness.USER, conversation, "Second"));
      Future.join(both).otherwiseEmpty().await();
      assertThat(both).as("round " + round).filteredOn(Future::succeeded).hasSize(1);
      Throwable refused = both.stream().filter(Future::failed).findFirst().orElseThrow().cause();
      assertThat(Failure.classify(refused)).isEqualTo(Failure.CONFLICT);
      assertThat(Failure.messageOf(refused)).isEqualTo(Turns.IN_PROGRESS);
      turn.events.untilTurnEnds();
    }
    assertThat(turn.model.requests()).hasSize(20);
  }

  /** The map of running turns, but a claim that goes in is heard of {@link #LATE_MS} later. */
  static final class LateClaims implements AsyncMap<String, String> {
    private final Vertx vertx;
    private final AsyncMap<String, String> map;

    LateClaims(Vertx vertx, AsyncMap<String, String> map) {
      this.vertx = vertx;
      this.map = map;
    }

    @Override
    public Future<String> putIfAbsent(String k, String v) {
      return map.putIfAbsent(k, v).compose(previous -> previous != null ? Future.succeededFuture(previous)
          : vertx.timer(LATE_MS).map((String) null));
    }

    @Override
    public Future<String> putIfAbsent(String k, String v, long ttl) {
      return map.putIfAbsent(k, v, ttl);
    }

    @Override
    public Future<String> get(String k) {
      return map.get(k);
    }

    @Override
    public Future<Void> put(String k, String v) {
      return map.put(k, v);
    }

    @Override
    public Future<Void> put(String k, String v, long ttl) {
      return map.put(k, v, ttl);
    }

    @Override
    public Future<String> remove(String k) {
      return map.remove(k);
    }

    @Override
    public Future<Boolean> removeIfPresent(String k, String v) {
      return map.removeIfPresent(k, v);
    }

    @Override
    public Future<String> replace(String k, String v) {
      return map.replace(k, v);
    }

    @Override
    public Future<String> replace(String k, String v, long ttl) {
      return map.replace(k, v, ttl);
    }

    @Override
    public Future<Boolean> replaceIfPresent(String k, String oldValue, String newValue) {
      return map.replaceIfPresent(k, oldValue, newValue);
    }

    @Override
    public Future<Boolean> replaceIfPresent(String k, String oldValue, String newValue, long ttl) {
      return map.replaceIfPresent(k, oldValue, newValue, ttl);
    }

    @Override
    public Future<Void> clear() {
      return map.clear();
    }

    @Override
    public Future<Integer> size() {
      return map.size();
    }

    @Override
    public Future<java.util.Set<String>> keys() {
      return map.keys();
    }

    @Override
    public Future<List<String>> values() {
      return map.values();
    }

    @Override
    public Future<Map<String, String>> entries() {
      return map.entries();
    }
  }
}
