package io.quarry.llm;

import io.quarry.bus.Addresses;
import io.quarry.bus.TurnClaim;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.shareddata.AsyncMap;
import java.util.List;
import java.util.UUID;
import java.util.function.UnaryOperator;

/**
 * The cluster's running turns ({@link Addresses#TURNS_MAP}), as one llm verticle sees them: it claims a
 * conversation before a turn starts there and gives it back when the turn has ended, on whichever node.
 */
final class TurnRegistry {

  /** This verticle, among every llm verticle of the cluster. */
  final String owner = UUID.randomUUID().toString();
  final String nodeId;
  private final AsyncMap<String, String> map;

  private TurnRegistry(String nodeId, AsyncMap<String, String> map) {
    this.nodeId = nodeId;
    this.map = map;
  }

  static Future<TurnRegistry> open(Vertx vertx, String nodeId, UnaryOperator<AsyncMap<String, String>> reach) {
    return vertx.sharedData().<String, String>getAsyncMap(Addresses.TURNS_MAP)
        .map(map -> new TurnRegistry(nodeId, reach.apply(map)));
  }

  TurnClaim claimFor(String userId, String conversationId, String messageId) {
    return new TurnClaim(conversationId, userId, messageId, owner, nodeId);
  }

  /**
   * True when the conversation was free, and is now the claim's. Hazelcast runs an operation again when its partition
   * moves (a member left) and may have applied it already: then the claim found is this one.
   */
  Future<Boolean> claim(TurnClaim claim) {
    String mine = claim.encode();
    return map.putIfAbsent(claim.conversationId(), mine).map(previous -> previous == null || previous.equals(mine));
  }

  /**
   * True when this call removed the claim: of several callers, exactly one is told so — but for a removal Hazelcast
   * ran again after it was applied (its partition moved), which says false.
   */
  Future<Boolean> release(TurnClaim claim) {
    return map.removeIfPresent(claim.conversationId(), claim.encode());
  }

  /** The conversation's running turn, or null. */
  Future<TurnClaim> find(String conversationId) {
    return map.get(conversationId).map(text -> text == null ? null : TurnClaim.decode(text));
  }

  Future<List<TurnClaim>> all() {
    return map.values().map(values -> values.stream().map(TurnClaim::decode).toList());
  }

  boolean mine(TurnClaim claim) {
    return owner.equals(claim.owner());
  }
}
