package io.quarry.chat;

import io.quarry.bus.Fields;
import io.quarry.bus.QuarryException;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

/** Request-body validation: every refusal names the field. */
final class Bodies {

  private Bodies() {
  }

  /** The body as a JSON object; an empty body counts as {@code {}}. */
  static JsonObject object(RoutingContext ctx) {
    String text = ctx.body() == null ? null : ctx.body().asString();
    if (text == null || text.isBlank()) {
      return new JsonObject();
    }
    try {
      Object parsed = io.vertx.core.json.Json.decodeValue(text);
      if (parsed instanceof JsonObject json) {
        return json;
      }
    } catch (DecodeException e) {
      throw QuarryException.badRequest("Request body is not valid JSON");
    }
    throw QuarryException.badRequest("Request body must be a JSON object");
  }

  static String requiredString(JsonObject body, String field, int maxLength) {
    String value = optionalString(body, field, maxLength);
    if (value == null || value.isBlank()) {
      throw QuarryException.badRequest("Field '" + field + "' is required");
    }
    return value;
  }

  /** Text or absent, as the bus's requests read it ({@link Fields#optional}): the same refusal at every door. */
  static String optionalString(JsonObject body, String field, int maxLength) {
    return atMost(field, Fields.optional(body, field), maxLength);
  }

  /** {@code text} (null or not) when it is at most {@code maxLength} characters long. */
  static String atMost(String field, String text, int maxLength) {
    if (text != null && text.length() > maxLength) {
      throw QuarryException.badRequest(
          "Field '" + field + "' must be at most " + String.format("%,d", maxLength) + " characters");
    }
    return text;
  }

  static String required(String field, String text, int maxLength) {
    if (text == null || text.isBlank()) {
      throw QuarryException.badRequest("Field '" + field + "' is required");
    }
    return atMost(field, text, maxLength);
  }

  /** A whole number from {@code min} to {@code max}, or null when absent (or JSON null). */
  static Integer optionalInt(JsonObject body, String field, int min, int max) {
    Object value = body.getValue(field);
    if (value == null) {
      return null;
    }
    if (!(value instanceof Integer || value instanceof Long) || ((Number) value).longValue() < min
        || ((Number) value).longValue() > max) {
      throw QuarryException.badRequest("Field '" + field + "' must be a whole number from " + min + " to "
          + String.format("%,d", max));
    }
    return ((Number) value).intValue();
  }

  /** A JSON object, or null when absent (or JSON null). */
  static JsonObject optionalObject(JsonObject body, String field) {
    Object value = body.getValue(field);
    if (value != null && !(value instanceof JsonObject)) {
      throw QuarryException.badRequest("Field '" + field + "' must be an object");
    }
    return (JsonObject) value;
  }

  /** An array of at most {@code max} strings, each at most {@code maxLength} characters, refused as {@code refusal}. */
  static java.util.List<String> strings(JsonObject body, String field, int max, int maxLength, String refusal) {
    Object value = body.getValue(field);
    if (!(value instanceof io.vertx.core.json.JsonArray array) || array.size() > max
        || !array.stream().allMatch(v -> v instanceof String text && text.length() <= maxLength)) {
      throw QuarryException.badRequest(refusal);
    }
    return array.stream().map(String.class::cast).toList();
  }
}
