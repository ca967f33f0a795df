package io.quarry.bus;

import io.vertx.core.json.JsonObject;

/**
 * A running chat turn, as the cluster-wide {@link Addresses#TURNS_MAP} holds it under its conversation's id: the
 * entry exists exactly while the turn runs, so it is the one-turn-per-conversation lock of the whole cluster.
 *
 * @param owner the llm verticle running it, which stops it at {@link Addresses#llmTurnStopAt(String)}
 * @param nodeId that verticle's node ({@link NodeInfo#id()}): when it leaves the cluster the turn is over
 * @param messageId the answer being written
 */
public record TurnClaim(String conversationId, String userId, String messageId, String owner, String nodeId) {

  /** The map's value: text, so that a conditional remove compares exactly what was put. */
  public String encode() {
    return new JsonObject().put(Keys.CONVERSATION_ID, conversationId).put(Keys.USER_ID, userId)
        .put(Keys.MESSAGE_ID, messageId).put("owner", owner).put(Keys.NODE_ID, nodeId).encode();
  }

  public static TurnClaim decode(String text) {
    JsonObject json = new JsonObject(text);
    return new TurnClaim(json.getString(Keys.CONVERSATION_ID), json.getString(Keys.USER_ID),
        json.getString(Keys.MESSAGE_ID), json.getString("owner"), json.getString(Keys.NODE_ID));
  }
}
