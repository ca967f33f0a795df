package io.quarry.llm;

import io.quarry.bus.ChatMessage;
import io.quarry.bus.TurnClaim;
import io.vertx.core.Future;
import java.util.function.Supplier;

/**
 * One question's turn as {@link Turns} sets it up.
 *
 * @param claim the conversation it holds in the cluster: whose it is, and the id the answer is written under
 * @param events where it tells the user's browsers what happens
 * @param hold its share of its user's token budget
 * @param release gives the hold, its place among the running turns and the claim back
 * @param continued the answer cut off at the model's output limit that this turn continues, as stored; null for a
 *     question's turn
 */
record TurnRequest(TurnClaim claim, Events events, TokenBudget.Hold hold, Supplier<Future<Void>> release,
    ChatMessage continued) {
}
