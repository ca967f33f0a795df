package io.quarry.bus;

import io.vertx.core.json.JsonObject;

/** A conversation as stored and as shown. */
public record Conversation(String id, String userId, String title, String createdAt, String updatedAt) {

  public JsonObject toJson() {
    return new JsonObject()
        .put("id", id)
        .put("user_id", userId)
        .put("title", title)
        .put("created_at", createdAt)
        .put("updated_at", updatedAt);
  }

  public static Conversation fromJson(JsonObject json) {
    return new Conversation(
        json.getString("id"),
        json.getString("user_id"),
        json.getString("title"),
        json.getString("created_at"),
        json.getString("updated_at"));
  }
}
