package io.quarry.bus;

import static io.quarry.bus.Fields.text;

import io.vertx.core.json.JsonObject;

/** What most requests name: whose, and in which conversation (and of which dataset). A user id is never optional. */
public final class Scopes {

  private Scopes() {
  }

  /** One user's. */
  public record UserRef(String userId) {
    public static final Codec<UserRef> CODEC = Codec.json(r -> new JsonObject().put(Keys.USER_ID, r.userId),
        json -> new UserRef(text(json, Keys.USER_ID)));
  }

  /** One conversation of a user. */
  public record ConversationRef(String userId, String conversationId) {
    public static final Codec<ConversationRef> CODEC = Codec.json(ConversationRef::toJson,
        json -> new ConversationRef(text(json, Keys.USER_ID), text(json, Keys.CONVERSATION_ID)));

    JsonObject toJson() {
      return new JsonObject().put(Keys.USER_ID, userId).put(Keys.CONVERSATION_ID, conversationId);
    }

    static ConversationRef from(JsonObject json) {
      return CODEC.decode(json);
    }
  }

  /** One dataset of a user's conversation. */
  public record DatasetRef(String userId, String conversationId, String datasetId) {
    public static final Codec<DatasetRef> CODEC = Codec.json(DatasetRef::toJson,
        json -> new DatasetRef(text(json, Keys.USER_ID), text(json, Keys.CONVERSATION_ID), text(json, Keys.DATASET_ID)));

    public ConversationRef conversation() {
      return new ConversationRef(userId, conversationId);
    }

    JsonObject toJson() {
      return new ConversationRef(userId, conversationId).toJson().put(Keys.DATASET_ID, datasetId);
    }
  }
}
