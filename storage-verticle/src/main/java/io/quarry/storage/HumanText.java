package io.quarry.storage;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The words a person would read in a message's content. Most content is the text itself; content kept as JSON (a
 * tool's call or answer, a client's structured message) would show its quotes escaped and its keys in a search's few
 * words ({@code {"text":"the \"MSFT\" close"}}): of such content only its strings count, those of its text fields
 * ({@code text}, {@code content}, {@code answer}, {@code message}) when it has any, else all of them.
 */
final class HumanText {

  private static final Set<String> TEXT_FIELDS = Set.of("text", "content", "answer", "message");

  private HumanText() {
  }

  static String of(String content) {
    if (content == null) {
      return null;
    }
    String trimmed = content.strip();
    if (!(trimmed.startsWith("{") && trimmed.endsWith("}") || trimmed.startsWith("[") && trimmed.endsWith("]"))) {
      return content;
    }
    Object parsed;
    try {
      parsed = Json.decodeValue(trimmed);
    } catch (DecodeException e) {
      return content; // text that only looks like JSON, such as "[draft]"
    }
    List<String> fields = new ArrayList<>();
    List<String> all = new ArrayList<>();
    collect(parsed, false, fields, all);
    List<String> words = fields.isEmpty() ? all : fields;
    return words.isEmpty() ? content : String.join(" ", words);
  }

  private static void collect(Object value, boolean textField, List<String> fields, List<String> all) {
    if (value instanceof String s && !s.isBlank()) {
      (textField ? fields : all).add(s.strip());
    } else if (value instanceof JsonObject object) {
      for (Map.Entry<String, Object> e : object) {
        collect(e.getValue(), TEXT_FIELDS.contains(e.getKey()), fields, all);
      }
    } else if (value instanceof JsonArray array) {
      array.forEach(item -> collect(item, textField, fields, all));
    }
  }
}
