package io.quarry.llm;

import io.quarry.bus.Bus;
import io.quarry.bus.ChatEvents;
import io.quarry.bus.ChatMessage;
import io.quarry.bus.Conversation;
import io.quarry.bus.Failure;
import io.quarry.bus.LlmClient;
import io.quarry.bus.LlmOps.Budget;
import io.quarry.bus.LlmOps.ClaimedTurn;
import io.quarry.bus.LlmOps.ContinueTurn;
import io.quarry.bus.LlmOps.TurnContinued;
import io.quarry.bus.LlmOps.Drained;
import io.quarry.bus.LlmOps.Held;
import io.quarry.bus.LlmOps.StartTurn;
import io.quarry.bus.LlmOps.Stopped;
import io.quarry.bus.LlmOps.TurnStarted;
import io.quarry.bus.LlmOps;
import io.quarry.bus.LogContext;
import io.quarry.bus.QuarryException;
import io.quarry.bus.Scopes.ConversationRef;
import io.quarry.bus.Scopes.UserRef;
import io.quarry.bus.StorageClient;
import io.quarry.bus.StorageOps;
import io.quarry.bus.TurnClaim;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.EventBus;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The turns this verticle runs, and the one-turn-per-conversation rule of the whole cluster. */
final class Turns {

  static final String IN_PROGRESS = "Generation already in progress for this conversation";
  /** How long a stop waits for the node running the turn; one that does not answer is leaving the cluster. */
  static final long STOP_WAIT_MS = 5_000;
  private static final Logger log = LoggerFactory.getLogger(Turns.class);

  private final TurnContext context;
  private final Vertx vertx;
  private final EventBus bus;
  private final Bus ops;
  private final StorageClient storage;
  private final TokenBudget budget;
  private final Titles titles;
  private final TurnRegistry registry;
  /** The turns this verticle runs, by conversation. */
  private final Map<String, Turn> running = new HashMap<>();
  /** The claims this verticle holds, from its claim until its release, by message id. */
  private final Set<String> holding = new HashSet<>();
  private final StaleClaims stale;
  /** Its node is stopping: no new turn starts here. */
  private boolean draining;

  Turns(TurnContext context, TokenBudget budget, TurnRegistry registry, Orphans orphans) {
    this.context = context;
    this.vertx = context.vertx();
    this.bus = vertx.eventBus();
    this.ops = new Bus(vertx);
    this.storage = context.storage();
    this.budget = budget;
    this.registry = registry;
    this.titles = new Titles(storage);
    this.stale = new StaleClaims(ops, registry, orphans, holding::contains);
  }

  /**
   * Stores the user's message, starts the turn, and answers with the id the answer will stream under. The
   * conversation is claimed in the cluster-wide registry first: a second question, on any llm node, is refused.
   */
  Future<TurnStarted> start(StartTurn request) {
    String userId = request.userId();
    String conversationId = request.conversationId();
    String content = content(request.content());
    refuseWhenUnavailable();
    TurnClaim claim = registry.claimFor(userId, conversationId, UUID.randomUUID().toString());
    LogContext.put(LogContext.CONVERSATION_ID, conversationId);
    LogContext.put(LogContext.MESSAGE_ID, claim.messageId());
    // Only its owner may learn that a conversation is busy; anybody else is told it does not exist.
    return storage.conversation(userId, conversationId)
        .compose(conversation -> claim(claim).compose(claimed -> claimed
            ? begin(conversation, claim, content).onFailure(e -> release(claim))
            : Future.failedFuture(QuarryException.conflict(IN_PROGRESS))));
  }

  /**
   * Continues a cut-off answer: a turn like a question's, claimed the same way (so refused while another runs) and held
   * in the budget the same way, that writes under the answer's own id. The answer is checked under the claim, where no
   * other turn can add to the conversation, and opened again in storage only once the budget has let the turn start.
   */
  Future<TurnContinued> resume(ContinueTurn request) {
    refuseWhenUnavailable();
    String userId = request.userId();
    TurnClaim claim = registry.claimFor(userId, request.conversationId(), request.messageId());
    LogContext.put(LogContext.CONVERSATION_ID, request.conversationId());
    LogContext.put(LogContext.MESSAGE_ID, claim.messageId());
    // Its claim is the one of a turn of this verticle still writing the answer, were it continued twice: the registry
    // would take it for its own claim found again, and the second would release the first's.
    return storage.conversation(userId, request.conversationId())
        .compose(conversation -> holding.contains(claim.messageId())
            ? Future.failedFuture(QuarryException.conflict(IN_PROGRESS))
            : claim(claim).compose(claimed -> claimed
                ? resume(claim).onFailure(e -> release(claim))
                : Future.failedFuture(QuarryException.conflict(IN_PROGRESS))));
  }

  private Future<TurnContinued> resume(TurnClaim claim) {
    String userId = claim.userId();
    Events events = new Events(bus, userId, claim.conversationId());
    return storage.messages(userId, claim.conversationId()).compose(messages -> {
      ChatMessage cut = continuable(messages, claim.messageId());
      return hold(userId, events).compose(hold -> storage.reopenMessage(userId, claim.conversationId(), cut.id(),
              Ending.CUT_OFF_NOTICE)
          .onFailure(e -> hold.release())
          .map(reopened -> {
            run(claim, new TurnRequest(claim, events, hold, releaser(claim, hold), reopened));
            return new TurnContinued(claim.messageId());
          }));
    });
  }

  /** The answer to continue: the conversation's last message, an answer that ended cut off. */
  private static ChatMessage continuable(List<ChatMessage> messages, String messageId) {
    ChatMessage found = messages.stream().filter(m -> m.id().equals(messageId) && ChatMessage.ASSISTANT.equals(m.role()))
        .findFirst().orElseThrow(() -> QuarryException.notFound("Message not found"));
    if (found != messages.get(messages.size() - 1) || !ChatMessage.COMPLETE.equals(found.status())
        || !Ending.CUT_OFF_NOTICE.equals(found.notice())) {
      throw QuarryException.conflict(StorageOps.NOT_CUT_OFF);
    }
    return found;
  }

  private void refuseWhenUnavailable() {
    if (draining) {
      throw new QuarryException(Failure.UNAVAILABLE, LlmClient.RESTARTING);
    }
    if (context.model() == null) {
      throw new QuarryException(Failure.UNAVAILABLE, "Chat is unavailable: the server has no GEMINI_API_KEY. Set it in"
          + " the server's environment and restart the server.");
    }
  }

  /**
   * A claim that refuses is checked: one whose turn has ended gives way. The claim counts as held from before it is put
   * in the registry: a node whose own claim the registry refused asks this one whether it holds the claim it found, and
   * must hear yes even while the registry's answer is still on its way here — a no would have it settle a live claim
   * as stale, and two turns would run in one conversation.
   */
  private Future<Boolean> claim(TurnClaim claim) {
    holding.add(claim.messageId());
    return registry.claim(claim)
        .compose(claimed -> claimed ? Future.succeededFuture(true) : stale.settled(claim.conversationId())
            .compose(settled -> settled ? registry.claim(claim) : Future.succeededFuture(false)))
        .andThen(claimed -> {
          if (claimed.failed() || !claimed.result()) {
            holding.remove(claim.messageId());
          }
        });
  }

  /** Whether this verticle still holds the claim of the answer: its turn is starting or running. */
  Future<Held> holds(ClaimedTurn claim) {
    return Future.succeededFuture(new Held(holding.contains(claim.messageId())));
  }

  private Future<TurnStarted> begin(Conversation conversation, TurnClaim claim, String content) {
    String userId = claim.userId();
    String conversationId = claim.conversationId();
    Events events = new Events(bus, userId, conversationId);
    return hold(userId, events).compose(hold -> storage.appendMessage(userId, ChatMessage.user(conversationId, content))
        .onFailure(e -> hold.release())
        .map(stored -> {
          run(claim, new TurnRequest(claim, events, hold, releaser(claim, hold), null));
          titles.nameAfterFirstQuestion(conversation, content, events);
          return new TurnStarted(claim.messageId(), stored.id());
        }));
  }

  private void run(TurnClaim claim, TurnRequest request) {
    Turn turn = new Turn(context, request);
    running.put(claim.conversationId(), turn);
    // A line at each end of every answer, so that an answer that never ended can be followed to the node that had it.
    log.info("Answer {} of conversation {} started", claim.messageId(), claim.conversationId());
    turn.run().onComplete(done -> {
      log.info("Answer {} of conversation {} ended", claim.messageId(), claim.conversationId());
      announceBudget(claim.userId(), request.events());
    });
  }

  private java.util.function.Supplier<Future<Void>> releaser(TurnClaim claim, TokenBudget.Hold hold) {
    return () -> {
      hold.release();
      running.remove(claim.conversationId());
      return release(claim);
    };
  }

  /**
   * The node is stopping: no new turn starts, and the running ones have {@code graceMs} to finish; those still
   * running then stop, their answers kept as interrupted. Completes once every one has ended.
   */
  Future<Drained> drain(long graceMs) {
    draining = true;
    List<Future<Void>> ending = running.values().stream().map(Turn::finished).toList();
    if (ending.isEmpty()) {
      return Future.succeededFuture(new Drained(0));
    }
    log.info("Draining: {} answers being written have {} ms to finish", ending.size(), graceMs);
    int[] interrupted = {0};
    long timer = vertx.setTimer(graceMs, t -> List.copyOf(running.values()).forEach(turn -> {
      interrupted[0]++;
      turn.interrupt();
    }));
    return Future.join(ending).transform(done -> {
      vertx.cancelTimer(timer);
      return Future.succeededFuture(new Drained(interrupted[0]));
    });
  }

  /** Gives the conversation back; if the registry cannot be reached, the claim is settled when this node leaves. */
  private Future<Void> release(TurnClaim claim) {
    holding.remove(claim.messageId());
    return registry.release(claim)
        .onFailure(e -> log.warn("Conversation {} could not be released: {}", claim.conversationId(), e.getMessage()))
        .<Void>mapEmpty().otherwiseEmpty();
  }

  Future<Budget> usage(UserRef user) {
    return budget.usage(user.userId()).map(TokenBudget.Usage::report);
  }

  /** A turn starts only under the limit, counting the user's other running turns, and holds its share. */
  private Future<TokenBudget.Hold> hold(String userId, Events events) {
    return budget.hold(userId).onFailure(e -> {
      String refused = TokenBudget.reason(e);
      if (refused != null) {
        LlmMetrics.budgetRejection(refused);
      }
      if (e instanceof TokenBudget.Exceeded exceeded) {
        events.emit(ChatEvents.rateLimitExceeded(events.conversationId, exceeded.resetsInSeconds));
      }
    });
  }

  /** After a turn: a warning from 80 %, "exceeded" from 100 %. */
  private void announceBudget(String userId, Events events) {
    budget.usage(userId).onSuccess(usage -> {
      if (usage.exceeded()) {
        events.emit(ChatEvents.rateLimitExceeded(events.conversationId, usage.resetsInSeconds()));
      } else if (usage.warning()) {
        events.emit(ChatEvents.rateLimitWarning(events.conversationId, usage.report().usagePercent(),
            usage.limit() - usage.used()));
      }
    });
  }

  /** Stops the conversation's turn on whichever llm node runs it. */
  Future<Stopped> stop(ConversationRef ref) {
    String userId = ref.userId();
    String conversationId = ref.conversationId();
    // Like every other route, a conversation that is not the caller's is not found (storage checks).
    return storage.conversation(userId, conversationId)
        .compose(owned -> registry.find(conversationId))
        .compose(claim -> claim == null ? stopped(false)
            : registry.mine(claim) ? stopHere(ref)
            : LlmOps.turnStopAt(claim.owner()).call(ops, ref, STOP_WAIT_MS)
                .recover(e -> notStopped(claim, e)));
  }

  /** A turn this verticle runs, stopped for its own user only. */
  Future<Stopped> stopHere(ConversationRef ref) {
    Turn turn = running.get(ref.conversationId());
    return turn == null || !turn.userId.equals(ref.userId()) ? stopped(false)
        : turn.stop().compose(v -> stopped(true));
  }

  /** Its node is gone or going: the turn ends on its own, with a chat_error, once the node has left. */
  private static Future<Stopped> notStopped(TurnClaim claim, Throwable e) {
    log.warn("The turn of conversation {} on node {} could not be stopped: {}", claim.conversationId(),
        claim.nodeId(), e.getMessage());
    return stopped(false);
  }

  private static Future<Stopped> stopped(boolean stopped) {
    return Future.succeededFuture(new Stopped(stopped));
  }

  private static String content(String text) {
    if (text == null || text.isBlank()) {
      throw QuarryException.badRequest("Field 'content' is required");
    }
    if (text.length() > LlmClient.MAX_MESSAGE_CHARS) {
      throw QuarryException.badRequest("Field 'content' must be at most "
          + String.format("%,d", LlmClient.MAX_MESSAGE_CHARS) + " characters");
    }
    return text;
  }
}
