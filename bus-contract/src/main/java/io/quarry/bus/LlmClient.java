package io.quarry.bus;

import static io.quarry.bus.Addresses.*;

import io.vertx.core.Future;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.json.JsonObject;

/**
 * Chat turns. Starting one stores the user's message and answers at once with the id of the assistant
 * message that will stream; everything else arrives as events on {@link Addresses#chatEvents(String)}.
 */
public final class LlmClient {

  /** What a question gets from a node that is stopping (see {@link Addresses#NODE_DRAINING}). */
  public static final String RESTARTING = "Quarry is restarting, try again shortly";

  /** Most characters a user message may have. */
  public static final int MAX_MESSAGE_CHARS = 10_000;

  private final EventBus bus;

  public LlmClient(EventBus bus) {
    this.bus = bus;
  }

  /**
   * @return {@code {message_id, user_message_id}}; fails with BAD_REQUEST (empty or too long), NOT_FOUND,
   * CONFLICT "Generation already in progress for this conversation", RATE_LIMITED, or UNAVAILABLE when
   * chat is not configured
   */
  public Future<JsonObject> start(String userId, String conversationId, String content) {
    return Bus.request(bus, LLM_TURN_START, new JsonObject().put(Keys.USER_ID, userId)
        .put(Keys.CONVERSATION_ID, conversationId).put("content", content), Deliveries.acrossStorage());
  }

  /** Stops the conversation's running turn, keeping its partial answer; {@code {stopped}} says whether one ran. */
  public Future<JsonObject> stop(String userId, String conversationId) {
    return Bus.request(bus, LLM_TURN_STOP, new JsonObject().put(Keys.USER_ID, userId)
        .put(Keys.CONVERSATION_ID, conversationId), Deliveries.acrossStorage());
  }

  /**
   * The user's token budget over the rolling 24 hours:
   * {@code {tokens_used, token_limit, remaining, usage_percent, resets_in_seconds}}.
   */
  public Future<JsonObject> usage(String userId) {
    return Bus.request(bus, LLM_USAGE_GET, new JsonObject().put(Keys.USER_ID, userId), Deliveries.acrossStorage());
  }

  /** Whether chat can run (a Gemini key is configured). */
  public Future<LlmStatus> status() {
    return Bus.request(bus, LLM_STATUS, new JsonObject(), Deliveries.within(2_000)).map(LlmStatus::fromJson);
  }
}
