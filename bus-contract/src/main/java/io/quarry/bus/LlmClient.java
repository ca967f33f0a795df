package io.quarry.bus;

import static io.quarry.bus.LlmOps.*;

import io.quarry.bus.Scopes.ConversationRef;
import io.quarry.bus.Scopes.UserRef;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

/** The llm-verticle's operations ({@link LlmOps}) as methods, for callers that hold one. */
public final class LlmClient {

  /** What a question gets from a node that is stopping (see {@link Addresses#NODE_DRAINING}). */
  public static final String RESTARTING = "Quarry is restarting, try again shortly";

  /** Most characters a user message may have. */
  public static final int MAX_MESSAGE_CHARS = 10_000;

  private final Bus bus;

  /** Call from the verticle that uses it (see {@link Bus}). */
  public LlmClient(Vertx vertx) {
    this.bus = new Bus(vertx);
  }

  /** See {@link LlmOps#TURN_START}. */
  public Future<TurnStarted> start(String userId, String conversationId, String content) {
    return TURN_START.call(bus, new StartTurn(userId, conversationId, content));
  }

  /** See {@link LlmOps#TURN_CONTINUE}. */
  public Future<TurnContinued> continueTurn(String userId, String conversationId, String messageId) {
    return TURN_CONTINUE.call(bus, new ContinueTurn(userId, conversationId, messageId));
  }

  /** See {@link LlmOps#TURN_FOLLOW_UPS}. */
  public Future<FollowUps> followUps(String userId, String conversationId, String messageId) {
    return TURN_FOLLOW_UPS.call(bus, new AnswerRef(userId, conversationId, messageId));
  }

  /** Stops the conversation's running turn, keeping its partial answer; says whether one ran. */
  public Future<Stopped> stop(String userId, String conversationId) {
    return TURN_STOP.call(bus, new ConversationRef(userId, conversationId));
  }

  /** The user's token budget over the rolling 24 hours. */
  public Future<Budget> usage(String userId) {
    return USAGE_GET.call(bus, new UserRef(userId));
  }

  /** Whether chat can run (a model key is configured). */
  public Future<LlmStatus> status() {
    return STATUS.call(bus, null);
  }
}
