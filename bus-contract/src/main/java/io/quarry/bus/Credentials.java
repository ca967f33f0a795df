package io.quarry.bus;

import io.vertx.core.json.JsonObject;

/** What signing in checks: the user an email names and the hash of their password. */
public record Credentials(User user, String passwordHash) {

  public JsonObject toJson() {
    return new JsonObject().put(Keys.USER, user.toJson()).put(Keys.PASSWORD_HASH, passwordHash);
  }

  public static Credentials fromJson(JsonObject json) {
    return new Credentials(User.fromJson(json.getJsonObject(Keys.USER)), json.getString(Keys.PASSWORD_HASH));
  }
}
