package io.quarry.llm;

import io.quarry.bus.Bus;
import io.quarry.bus.LlmOps;
import io.quarry.bus.LlmOps.ClaimedTurn;
import io.quarry.bus.LlmOps.Held;
import io.quarry.bus.TurnClaim;
import io.vertx.core.Future;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import java.util.function.Predicate;

/**
 * Claims that outlived their turns. A conversation stays claimed when its turn's node left and no llm node settled it
 * (the departure was heard while Hazelcast's partitions moved, and the map's view then missed the claim), or when
 * the release of an ended turn was lost. So a claim that refuses a question is checked with its owner: an owner that
 * no longer holds it, or is gone from the bus, has it settled as the orphan it is, and the question goes ahead.
 */
final class StaleClaims {

  private final Bus bus;
  private final TurnRegistry registry;
  private final Orphans orphans;
  /** Whether this verticle holds the claim of an answer, by its message id. */
  private final Predicate<String> holds;

  StaleClaims(Bus bus, TurnRegistry registry, Orphans orphans, Predicate<String> holds) {
    this.bus = bus;
    this.registry = registry;
    this.orphans = orphans;
    this.holds = holds;
  }

  /** True when the conversation's claim was stale, and is settled (or was released meanwhile). */
  Future<Boolean> settled(String conversationId) {
    return registry.find(conversationId).compose(claim -> claim == null ? Future.succeededFuture(true)
        : held(claim).compose(held -> held ? Future.succeededFuture(false) : orphans.end(claim, "its owner no longer holds it").map(true)));
  }

  /** An owner that does not answer in time may be busy or dying: its claim stands until its node is seen to leave. */
  private Future<Boolean> held(TurnClaim claim) {
    if (registry.mine(claim)) {
      return Future.succeededFuture(holds.test(claim.messageId()));
    }
    return LlmOps.turnHeldAt(claim.owner()).call(bus, new ClaimedTurn(claim.messageId()), Turns.STOP_WAIT_MS)
        .map(Held::held)
        .recover(e -> Future.succeededFuture(!(e instanceof ReplyException re
            && re.failureType() == ReplyFailure.NO_HANDLERS)));
  }
}
