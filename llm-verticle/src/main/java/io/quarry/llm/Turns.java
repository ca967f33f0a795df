package io.quarry.llm;

import static io.quarry.bus.Keys.required;

import io.quarry.bus.ChatEvents;
import io.quarry.bus.ChatMessage;
import io.quarry.bus.Conversation;
import io.quarry.bus.DatasetClient;
import io.quarry.bus.Failure;
import io.quarry.bus.Keys;
import io.quarry.bus.LlmClient;
import io.quarry.bus.QuarryException;
import io.quarry.bus.StorageClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.json.JsonObject;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/** The running turns of this verticle, one per conversation at most. */
final class Turns {

  static final String IN_PROGRESS = "Generation already in progress for this conversation";
  static final String DEFAULT_TITLE = "New conversation";
  static final int TITLE_CHARS = 60;

  private final Vertx vertx;
  private final EventBus bus;
  private final GeminiClient gemini;
  private final StorageClient storage;
  private final DatasetClient datasets;
  private final LlmSettings settings;
  private final TokenBudget budget;
  private final Map<String, Turn> running = new HashMap<>();
  /** Conversations with a turn starting or running: at most one each. */
  private final Set<String> busy = new HashSet<>();

  Turns(Vertx vertx, GeminiClient gemini, StorageClient storage, DatasetClient datasets, LlmSettings settings,
      TokenBudget budget) {
    this.vertx = vertx;
    this.bus = vertx.eventBus();
    this.budget = budget;
    this.gemini = gemini;
    this.storage = storage;
    this.datasets = datasets;
    this.settings = settings;
  }

  /** Stores the user's message, starts the turn, and answers with the id the answer will stream under. */
  Future<JsonObject> start(JsonObject body) {
    String userId = required(body, Keys.USER_ID);
    String conversationId = required(body, Keys.CONVERSATION_ID);
    String content = content(body);
    if (gemini == null) {
      throw new QuarryException(Failure.UNAVAILABLE, "Chat is unavailable: the server has no GEMINI_API_KEY. Set it in"
          + " the server's environment and restart the server.");
    }
    if (busy.contains(conversationId)) {
      // Only its owner may learn that a conversation is busy; anybody else is told it does not exist.
      return storage.conversation(userId, conversationId)
          .compose(owned -> Future.failedFuture(QuarryException.conflict(IN_PROGRESS)));
    }
    busy.add(conversationId);
    String assistantId = UUID.randomUUID().toString();
    Events events = new Events(bus, userId, conversationId);
    return storage.conversation(userId, conversationId)
        .compose(conversation -> hold(userId, events).compose(hold -> storage.appendMessage(userId,
                ChatMessage.user(conversationId, content))
            .onFailure(e -> hold.release())
            .map(stored -> {
              AnswerSaver saver = new AnswerSaver(vertx, storage, userId, settings.checkpointMs());
              Turn turn = new Turn(gemini, storage, datasets, events, settings, saver, hold, userId, conversationId,
                  assistantId);
              running.put(conversationId, turn);
              turn.run().onComplete(done -> {
                hold.release();
                running.remove(conversationId);
                busy.remove(conversationId);
                announceBudget(userId, events);
              });
              nameAfterFirstMessage(conversation, content, events);
              return new JsonObject().put(Keys.MESSAGE_ID, assistantId).put("user_message_id", stored.id());
            })))
        .onFailure(e -> {
          if (!running.containsKey(conversationId)) {
            busy.remove(conversationId);
          }
        });
  }

  Future<JsonObject> usage(JsonObject body) {
    return budget.usage(required(body, Keys.USER_ID)).map(TokenBudget.Usage::toJson);
  }

  /** A turn starts only under the limit, counting the user's other running turns, and holds its share. */
  private Future<TokenBudget.Hold> hold(String userId, Events events) {
    return budget.hold(userId).onFailure(e -> {
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
        events.emit(ChatEvents.rateLimitWarning(events.conversationId, usage.toJson().getDouble("usage_percent"),
            usage.limit() - usage.used()));
      }
    });
  }

  Future<JsonObject> stop(JsonObject body) {
    String userId = required(body, Keys.USER_ID);
    String conversationId = required(body, Keys.CONVERSATION_ID);
    // Like every other route, a conversation that is not the caller's is not found (storage checks).
    return storage.conversation(userId, conversationId).compose(owned -> {
      Turn turn = running.get(conversationId);
      return turn == null ? Future.succeededFuture(new JsonObject().put("stopped", false))
          : turn.stop().map(v -> new JsonObject().put("stopped", true));
    });
  }

  /** A conversation still called "New conversation" takes its name from its first question. */
  private void nameAfterFirstMessage(Conversation conversation, String content, Events events) {
    if (!DEFAULT_TITLE.equals(conversation.title())) {
      return;
    }
    String firstLine = content.strip().lines().findFirst().orElse("").strip();
    String title = firstLine.length() <= TITLE_CHARS ? firstLine : firstLine.substring(0, TITLE_CHARS - 1).strip() + "…";
    if (title.isEmpty()) {
      return;
    }
    storage.renameConversation(conversation.userId(), conversation.id(), title)
        .onSuccess(renamed -> events.emit(ChatEvents.conversationUpdated(conversation.id(), title)));
  }

  private static String content(JsonObject body) {
    Object value = body.getValue("content");
    if (!(value instanceof String text) || text.isBlank()) {
      throw QuarryException.badRequest("Field 'content' is required");
    }
    if (text.length() > LlmClient.MAX_MESSAGE_CHARS) {
      throw QuarryException.badRequest("Field 'content' must be at most "
          + String.format("%,d", LlmClient.MAX_MESSAGE_CHARS) + " characters");
    }
    return text;
  }

}
