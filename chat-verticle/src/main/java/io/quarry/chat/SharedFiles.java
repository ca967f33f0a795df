package io.quarry.chat;

import io.quarry.bus.QueryResult;
import io.quarry.bus.Tile;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * A shared result's (or a shared board tile's) stored rows as a file: CSV with a header (RFC 4180 quoting) or JSON, an array of row objects. Only
 * what is stored (at most {@link QueryResult#MAX_ROWS} rows), so a viewer's download runs no query.
 */
final class SharedFiles {

  private SharedFiles() {
  }

  static String csv(QueryResult result) {
    return csv(result.columnNames(), result.rowValues());
  }

  /** A board tile's stored copy, as a result's. */
  static String csv(Tile tile) {
    return csv(tile.columnNames(), tile.rows().toJsonArray());
  }

  private static String csv(List<String> names, JsonArray rows) {
    StringBuilder out = new StringBuilder();
    line(out, names.stream().map(n -> (Object) n).toList());
    for (Object row : rows) {
      line(out, ((JsonArray) row).getList());
    }
    return out.toString();
  }

  private static void line(StringBuilder out, List<?> cells) {
    for (int i = 0; i < cells.size(); i++) {
      out.append(i == 0 ? "" : ",").append(cell(cells.get(i)));
    }
    out.append("\r\n");
  }

  private static String cell(Object value) {
    if (value == null) {
      return "";
    }
    String text = value instanceof JsonObject || value instanceof JsonArray ? value.toString() : String.valueOf(value);
    return text.matches("(?s).*[\",\r\n].*") ? "\"" + text.replace("\"", "\"\"") + "\"" : text;
  }

  static String json(QueryResult result) {
    return json(result.columnNames(), result.rowValues());
  }

  static String json(Tile tile) {
    return json(tile.columnNames(), tile.rows().toJsonArray());
  }

  private static String json(List<String> names, JsonArray stored) {
    JsonArray rows = new JsonArray();
    for (Object row : stored) {
      JsonArray cells = (JsonArray) row;
      JsonObject object = new JsonObject();
      for (int i = 0; i < names.size(); i++) {
        object.put(names.get(i), cells.getValue(i));
      }
      rows.add(object);
    }
    return rows.encode();
  }
}
