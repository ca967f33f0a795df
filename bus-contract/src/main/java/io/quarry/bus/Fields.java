package io.quarry.bus;

import io.vertx.core.json.JsonObject;

/** Reading a request's fields as its codec decodes it: what is missing is refused by name. */
public final class Fields {

  private Fields() {
  }

  /** A required text field: BAD_REQUEST "Field 'x' is required" when missing or blank, or when it is not text. */
  public static String text(JsonObject body, String key) {
    return text(key, optional(body, key));
  }

  /**
   * An optional text field: null when missing (or JSON null); BAD_REQUEST "Field 'x' must be a string" when it is a
   * number, object, array or boolean, which {@code getString} would have turned into text or a default unseen.
   */
  public static String optional(JsonObject body, String key) {
    Object value = body.getValue(key);
    if (value != null && !(value instanceof String)) {
      throw QuarryException.badRequest("Field '" + key + "' must be a string");
    }
    return (String) value;
  }

  /** A field a record holds, required by the receiver that reads it. */
  public static String text(String key, String value) {
    if (value == null || value.isBlank()) {
      throw QuarryException.badRequest("Field '" + key + "' is required");
    }
    return value;
  }
}
