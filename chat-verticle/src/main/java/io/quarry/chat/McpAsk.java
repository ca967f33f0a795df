package io.quarry.chat;

import io.quarry.bus.Addresses;
import io.quarry.bus.ApiOps;
import io.quarry.bus.Bus;
import io.quarry.bus.ChatEvent;
import io.quarry.bus.ChatEvents;
import io.quarry.bus.ChatMessage;
import io.quarry.bus.Failure;
import io.quarry.bus.LlmOps.StartTurn;
import io.quarry.bus.QuarryException;
import io.quarry.bus.Scopes.ConversationRef;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * MCP's {@code ask}: a question asked as {@code api.turn.start} asks it, its answer followed on the user's events until
 * it ends. Each piece of text is a progress notification; the reply is the answer as stored (its text, SQL, results and
 * checked numbers). A client that cancels stops the answer, as the browser's Stop does.
 */
final class McpAsk {

  /** Longer than any answer may run: past it the reply is the answer as stored then, whatever its state. */
  static final long MAX_WAIT_MS = 15 * 60_000;

  private final Vertx vertx;
  private final Bus bus;

  McpAsk(Vertx vertx, Bus bus) {
    this.vertx = vertx;
    this.bus = bus;
  }

  Future<JsonObject> ask(McpCall call, String conversationId, String question) {
    Follower follower = new Follower(call, conversationId);
    MessageConsumer<JsonObject> events = vertx.eventBus().consumer(Addresses.chatEvents(call.userId()),
        m -> follower.event(ChatEvent.fromJson(m.body())));
    long timer = vertx.setTimer(MAX_WAIT_MS, t -> follower.ended.tryComplete());
    // Registered before the question is asked, so that no event of the answer goes by unseen.
    Future<JsonObject> answer = events.completion()
        .compose(ready -> ApiOps.TURN_START.call(bus, new StartTurn(call.userId(), conversationId, question)))
        .compose(started -> {
          // A stopped answer sends no event of its end: the stop's reply, which comes once it is saved, is that end.
          call.onCancel(() -> ApiOps.TURN_STOP.call(bus, new ConversationRef(call.userId(), conversationId))
              .onComplete(stopped -> follower.ended.tryComplete()));
          follower.started(started.messageId());
          return follower.ended.future().compose(end -> stored(call, conversationId, started.messageId(), end));
        });
    return answer.onComplete(done -> {
      vertx.cancelTimer(timer);
      events.unregister();
    });
  }

  /** The answer as stored once it ended; an answer that failed is the tool's error, in the words the user saw. */
  private Future<JsonObject> stored(McpCall call, String conversationId, String messageId, ChatEvent end) {
    if (end != null && ChatEvents.CHAT_ERROR.equals(end.type())) {
      return Future.failedFuture(new QuarryException(Failure.UNAVAILABLE, end.error()));
    }
    return ApiOps.CONVERSATION_GET.call(bus, new ConversationRef(call.userId(), conversationId))
        .map(read -> read.messages().stream().filter(m -> messageId.equals(m.id())).findFirst()
            .map(McpShapes::answer)
            .orElseThrow(() -> new QuarryException(Failure.NOT_FOUND, "The answer was not stored")));
  }

  /** The events of one answer, those that came before its id was known kept until it is. */
  private static final class Follower {
    final Promise<ChatEvent> ended = Promise.promise();
    private final McpCall call;
    private final String conversationId;
    private final List<ChatEvent> early = new ArrayList<>();
    private String messageId;
    private long written;

    Follower(McpCall call, String conversationId) {
      this.call = call;
      this.conversationId = conversationId;
    }

    void started(String id) {
      messageId = id;
      early.forEach(this::event);
      early.clear();
    }

    void event(ChatEvent event) {
      if (!conversationId.equals(event.conversationId()) || event.messageId() == null) {
        return;
      }
      if (messageId == null) {
        early.add(event);
      } else if (messageId.equals(event.messageId())) {
        follow(event);
      }
    }

    private void follow(ChatEvent event) {
      switch (event.type()) {
        case ChatEvents.CHAT_TOKEN -> {
          written += event.token().length();
          call.progress(written, event.token());
        }
        case ChatEvents.CHAT_COMPLETE, ChatEvents.CHAT_ERROR -> ended.tryComplete(event);
        default -> { }
      }
    }
  }
}
