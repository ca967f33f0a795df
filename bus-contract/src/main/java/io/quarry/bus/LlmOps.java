package io.quarry.bus;

import static io.quarry.bus.Addresses.*;
import static io.quarry.bus.Fields.text;

import io.quarry.bus.Scopes.ConversationRef;
import io.quarry.bus.Scopes.UserRef;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * Chat turns. Starting one stores the user's message and answers at once with the id of the assistant message that
 * will stream; everything else arrives as events on {@link Addresses#chatEvents(String)}.
 */
public final class LlmOps {

  private LlmOps() {
  }

  /** {@code content}: null when absent, which its receiver refuses as missing; anything but text is BAD_REQUEST. */
  public record StartTurn(String userId, String conversationId, String content) {
    static final Codec<StartTurn> CODEC = Codec.json(
        r -> new ConversationRef(r.userId, r.conversationId).toJson().put(Keys.CONTENT, r.content),
        json -> new StartTurn(text(json, Keys.USER_ID), text(json, Keys.CONVERSATION_ID),
            Fields.optional(json, Keys.CONTENT)));
  }

  /** The assistant message that will stream, and the user's message as stored. */
  public record TurnStarted(String messageId, String userMessageId) {
    static final Codec<TurnStarted> CODEC = Codec.json(TurnStarted::toJson,
        json -> new TurnStarted(json.getString(Keys.MESSAGE_ID), json.getString(Keys.USER_MESSAGE_ID)));

    public JsonObject toJson() {
      return new JsonObject().put(Keys.MESSAGE_ID, messageId).put(Keys.USER_MESSAGE_ID, userMessageId);
    }
  }

  /** The answer to continue: an assistant message of the conversation, cut off at the model's output limit. */
  public record ContinueTurn(String userId, String conversationId, String messageId) {
    static final Codec<ContinueTurn> CODEC = Codec.json(
        r -> new ConversationRef(r.userId, r.conversationId).toJson().put(Keys.MESSAGE_ID, r.messageId),
        json -> new ContinueTurn(text(json, Keys.USER_ID), text(json, Keys.CONVERSATION_ID),
            text(json, Keys.MESSAGE_ID)));
  }

  /** The answer that goes on streaming: the same {@code message_id}, its continuation appended. */
  public record TurnContinued(String messageId) {
    static final Codec<TurnContinued> CODEC = Codec.json(TurnContinued::toJson,
        json -> new TurnContinued(json.getString(Keys.MESSAGE_ID)));

    public JsonObject toJson() {
      return new JsonObject().put(Keys.MESSAGE_ID, messageId);
    }
  }

  /** An answer of the user's conversation, by its id. */
  public record AnswerRef(String userId, String conversationId, String messageId) {
    static final Codec<AnswerRef> CODEC = Codec.json(
        r -> new ConversationRef(r.userId, r.conversationId).toJson().put(Keys.MESSAGE_ID, r.messageId),
        json -> new AnswerRef(text(json, Keys.USER_ID), text(json, Keys.CONVERSATION_ID), text(json, Keys.MESSAGE_ID)));
  }

  /** Next questions the model suggests after an answer, at most {@link #MAX_FOLLOW_UPS}. */
  public record FollowUps(List<String> questions) {
    static final Codec<FollowUps> CODEC = Codec.json(FollowUps::toJson, json -> new FollowUps(
        json.getJsonArray(Keys.QUESTIONS, new JsonArray()).stream().map(String::valueOf).toList()));

    public JsonObject toJson() {
      return new JsonObject().put(Keys.QUESTIONS, new JsonArray(questions));
    }
  }

  /** Most next questions a {@link FollowUps} holds, as the page's own chips. */
  public static final int MAX_FOLLOW_UPS = 3;

  /** Whether a turn was running (and is now stopped, its partial answer kept). */
  public record Stopped(boolean stopped) {
    static final Codec<Stopped> CODEC = Codec.json(Stopped::toJson,
        json -> new Stopped(json.getBoolean(Keys.STOPPED, false)));

    public JsonObject toJson() {
      return new JsonObject().put(Keys.STOPPED, stopped);
    }
  }

  /** A claim of {@link Addresses#TURNS_MAP}, by the id of the answer its turn writes. */
  public record ClaimedTurn(String messageId) {
    static final Codec<ClaimedTurn> CODEC = Codec.json(r -> new JsonObject().put(Keys.MESSAGE_ID, r.messageId),
        json -> new ClaimedTurn(text(json, Keys.MESSAGE_ID)));
  }

  /** Whether an llm verticle still holds a claim: its turn is starting or running. */
  public record Held(boolean held) {
    static final Codec<Held> CODEC = Codec.json(r -> new JsonObject().put(Keys.HELD, r.held),
        json -> new Held(json.getBoolean(Keys.HELD, false)));
  }

  /**
   * The user's token budget over the rolling 24 hours; {@code estimated} when some of the figures are estimates (a
   * model server that gave no token counts).
   */
  public record Budget(long tokensUsed, long tokenLimit, long remaining, double usagePercent,
      long resetsInSeconds, boolean estimated) {
    static final Codec<Budget> CODEC = Codec.json(Budget::toJson, json -> new Budget(
        json.getLong("tokens_used", 0L), json.getLong("token_limit", 0L), json.getLong("remaining", 0L),
        json.getDouble("usage_percent", 0.0), json.getLong(BusFailure.RESETS_IN_SECONDS, 0L),
        json.getBoolean("estimated", false)));

    public JsonObject toJson() {
      return new JsonObject().put("tokens_used", tokensUsed).put("token_limit", tokenLimit).put("remaining", remaining)
          .put("usage_percent", usagePercent).put(BusFailure.RESETS_IN_SECONDS, resetsInSeconds)
          .put("estimated", estimated);
    }
  }

  /** How long running turns may go on before they are stopped with their answers kept. */
  public record Drain(long graceMs) {
    static final Codec<Drain> CODEC = Codec.json(r -> new JsonObject().put(Keys.GRACE_MS, r.graceMs),
        json -> new Drain(json.getLong(Keys.GRACE_MS, 0L)));
  }

  /** How many turns were still running at the end of the grace, and stopped. */
  public record Drained(int interrupted) {
    static final Codec<Drained> CODEC = Codec.json(r -> new JsonObject().put(Keys.INTERRUPTED, r.interrupted),
        json -> new Drained(json.getInteger(Keys.INTERRUPTED, 0)));
  }

  /**
   * Fails with BAD_REQUEST (empty or too long), NOT_FOUND, CONFLICT "Generation already in progress for this
   * conversation", RATE_LIMITED (with {@code resets_in_seconds}), or UNAVAILABLE when chat is not configured.
   */
  public static final Operation<StartTurn, TurnStarted> TURN_START = Operation.of(LLM_TURN_START, StartTurn.CODEC,
      TurnStarted.CODEC, Deliveries.ACROSS_STORAGE_MS, Resend.NEVER);
  /**
   * Continues an answer cut off at the model's output limit, as a turn of its own under the answer's id: its tokens
   * stream as {@code chat_token} events of that message and are appended to it. Fails like {@link #TURN_START} (but
   * BAD_REQUEST), and with NOT_FOUND when the message is no answer of the user's conversation, CONFLICT
   * {@link StorageOps#NOT_CUT_OFF} when it is not the conversation's last message or did not end cut off.
   */
  public static final Operation<ContinueTurn, TurnContinued> TURN_CONTINUE = Operation.of(LLM_TURN_CONTINUE,
      ContinueTurn.CODEC, TurnContinued.CODEC, Deliveries.ACROSS_STORAGE_MS, Resend.NEVER);
  /**
   * Next questions for an answer, written by the model in one request without tools, counted in the user's budget
   * like a turn. NOT_FOUND (no complete answer of the user's conversation), RATE_LIMITED (the budget), UNAVAILABLE
   * (chat not configured, or the model failed: the page then offers its own).
   */
  public static final Operation<AnswerRef, FollowUps> TURN_FOLLOW_UPS = Operation.of(LLM_TURN_FOLLOW_UPS,
      AnswerRef.CODEC, FollowUps.CODEC, Deliveries.ACROSS_STORAGE_MS, Resend.NEVER);
  /** Stops the conversation's running turn, wherever it runs, keeping its partial answer. */
  public static final Operation<ConversationRef, Stopped> TURN_STOP = Operation.of(LLM_TURN_STOP, ConversationRef.CODEC,
      Stopped.CODEC, Deliveries.ACROSS_STORAGE_MS, Resend.NEVER);
  /** Where the llm verticle {@code owner} stops a turn it runs ({@link Addresses#llmTurnStopAt}). */
  public static Operation<ConversationRef, Stopped> turnStopAt(String owner) {
    return Operation.of(llmTurnStopAt(owner), ConversationRef.CODEC, Stopped.CODEC, Deliveries.STORAGE_TIMEOUT_MS,
        Resend.NEVER);
  }
  /**
   * Whether the llm verticle {@code owner} still holds a claim ({@link Addresses#llmTurnHeldAt}): asked when a claim
   * refuses a question, since a claim whose turn has ended is stale.
   */
  public static Operation<ClaimedTurn, Held> turnHeldAt(String owner) {
    return Operation.of(llmTurnHeldAt(owner), ClaimedTurn.CODEC, Held.CODEC, Deliveries.STORAGE_TIMEOUT_MS,
        Resend.NEVER);
  }
  public static final Operation<UserRef, Budget> USAGE_GET = Operation.of(LLM_USAGE_GET, UserRef.CODEC,
      Budget.CODEC, Deliveries.ACROSS_STORAGE_MS, Resend.NEVER);
  /** Whether chat can run (a model key is configured). */
  public static final Operation<Void, LlmStatus> STATUS = Operation.of(LLM_STATUS, Codec.NONE,
      Codec.json(LlmStatus::toJson, LlmStatus::fromJson), 2_000, Resend.NEVER);
  /** Inside a node's process while it drains: no new turn; answers once the running ones have ended. */
  public static final Operation<Drain, Drained> DRAIN = Operation.of(LLM_DRAIN, Drain.CODEC, Drained.CODEC,
      Deliveries.STORAGE_TIMEOUT_MS, Resend.NEVER);
}
