package io.quarry.client;

import io.quarry.bus.ApiOps;
import io.quarry.bus.ApiOps.ConversationRead;
import io.quarry.bus.ApiOps.CreateConversation;
import io.quarry.bus.Bus;
import io.quarry.bus.Conversation;
import io.quarry.bus.Scopes.ConversationRef;
import io.quarry.bus.Scopes.UserRef;
import io.quarry.bus.StorageOps.RenameConversation;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.List;
import java.util.UUID;

/** A user's conversations: another user's answer NOT_FOUND. */
public final class Conversations {

  private final Bus bus;

  /** @param vertx joined to the cluster ({@link QuarryBus#join}) */
  public Conversations(Vertx vertx) {
    this.bus = new Bus(vertx);
  }

  /**
   * A new conversation, titled {@code title} (at most {@link ApiOps#MAX_TITLE} characters; null for the default). Named
   * here, so that it is made once even when the request is sent again after its node died.
   */
  public Future<Conversation> create(String userId, String title) {
    return ApiOps.CONVERSATION_CREATE.call(bus, new CreateConversation(userId, UUID.randomUUID().toString(), title));
  }

  /** Newest first. */
  public Future<List<Conversation>> list(String userId) {
    return ApiOps.CONVERSATION_LIST.call(bus, new UserRef(userId));
  }

  /** With its messages (answers as stored: their status, notice and checked numbers), datasets and runs. */
  public Future<ConversationRead> get(String userId, String conversationId) {
    return ApiOps.CONVERSATION_GET.call(bus, new ConversationRef(userId, conversationId));
  }

  public Future<Conversation> rename(String userId, String conversationId, String title) {
    return ApiOps.CONVERSATION_RENAME.call(bus, new RenameConversation(userId, conversationId, title));
  }

  /** With its messages, datasets and results. */
  public Future<Void> delete(String userId, String conversationId) {
    return ApiOps.CONVERSATION_DELETE.call(bus, new ConversationRef(userId, conversationId));
  }
}
