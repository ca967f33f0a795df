package io.quarry.client;

import io.quarry.bus.Addresses;
import io.quarry.bus.ApiOps;
import io.quarry.bus.LlmOps;
import io.quarry.bus.Bus;
import io.quarry.bus.ChatEvent;
import io.quarry.bus.LlmOps.StartTurn;
import io.quarry.bus.LlmOps.Stopped;
import io.quarry.bus.LlmOps.TurnStarted;
import io.quarry.bus.Scopes.ConversationRef;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;

/**
 * Questions and their answers. An answer streams as events ({@link io.quarry.bus.ChatEvents}) on its user's events
 * address: follow them ({@link #events}) before asking, or the first tokens pass unheard.
 */
public final class Turns {

  private final Bus bus;

  /** @param vertx joined to the cluster ({@link QuarryBus#join}) */
  public Turns(Vertx vertx) {
    this.bus = new Bus(vertx);
  }

  /**
   * Every event of the user's conversations until the consumer is unregistered; answered once every node knows of the
   * consumer, so that a question asked then is heard from its first token.
   */
  public Future<MessageConsumer<JsonObject>> events(String userId, Handler<ChatEvent> handler) {
    MessageConsumer<JsonObject> consumer = bus.eventBus().consumer(Addresses.chatEvents(userId),
        m -> handler.handle(ChatEvent.fromJson(m.body())));
    return consumer.completion().map(consumer);
  }

  /** Asks; the answer streams under the reply's {@code messageId}. Sent once: read the conversation before asking again. */
  public Future<TurnStarted> start(String userId, String conversationId, String question) {
    return ApiOps.TURN_START.call(bus, new StartTurn(userId, conversationId, question));
  }

  /**
   * Continues an answer cut off at the model's output limit: the rest streams under the same {@code messageId} and is
   * appended to it. Sent once.
   */
  public Future<LlmOps.TurnContinued> continueAnswer(String userId, String conversationId, String messageId) {
    return ApiOps.TURN_CONTINUE.call(bus, new LlmOps.ContinueTurn(userId, conversationId, messageId));
  }

  /**
   * Two or three next questions for a complete answer, written by the model and counted in the user's token budget,
   * where the server's {@code chat.followUps} is {@code model} (elsewhere CONFLICT). Sent once.
   */
  public Future<LlmOps.FollowUps> followUps(String userId, String conversationId, String messageId) {
    return ApiOps.TURN_FOLLOW_UPS.call(bus, new LlmOps.AnswerRef(userId, conversationId, messageId));
  }

  /** Stops the running answer, keeping what it wrote; {@code stopped} is false when none was running. */
  public Future<Stopped> stop(String userId, String conversationId) {
    return ApiOps.TURN_STOP.call(bus, new ConversationRef(userId, conversationId));
  }
}
