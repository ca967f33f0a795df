package io.quarry.bus;

import io.vertx.core.json.JsonObject;

/**
 * One event of {@link Addresses#chatEvents(String)} as an application reads it: its type ({@link ChatEvents}), its
 * conversation, and the fields of the common types by name; {@link #json()} holds all of them (docs/bus-api.md lists
 * each type's).
 */
public record ChatEvent(String type, String conversationId, JsonObject json) {

  public static ChatEvent fromJson(JsonObject json) {
    return new ChatEvent(json.getString("type"), json.getString(Keys.CONVERSATION_ID), json);
  }

  /** The answer an event of a turn belongs to ({@code chat_token}, {@code chat_complete}, {@code chat_error}). */
  public String messageId() {
    return json.getString(Keys.MESSAGE_ID);
  }

  /** A {@code chat_token}'s text. */
  public String token() {
    return json.getString("token");
  }

  /** A {@code chat_complete}'s tokens, input and output together. */
  public long tokenCount() {
    return json.getLong("token_count", 0L);
  }

  /** A {@code chat_complete}'s notice (why the answer ends short), or null. */
  public String notice() {
    return json.getString(Keys.NOTICE);
  }

  /** A {@code chat_error}'s message. */
  public String error() {
    return json.getString("error");
  }
}
