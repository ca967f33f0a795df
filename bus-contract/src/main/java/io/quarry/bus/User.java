package io.quarry.bus;

import io.vertx.core.json.JsonObject;

/** A person using Quarry; the local user of {@code auth.mode=local} has no email. */
public record User(String id, String email, String createdAt) {

  public JsonObject toJson() {
    return new JsonObject().put("id", id).put("email", email).put("created_at", createdAt);
  }

  public static User fromJson(JsonObject json) {
    return new User(json.getString("id"), json.getString("email"), json.getString("created_at"));
  }
}
