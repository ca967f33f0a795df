package io.quarry.bus;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * SQL for a worker: the statement and the only tables it may read, each a name bound to a Parquet URL.
 *
 * @param tables table name → URL, in the order the datasets were added
 */
public record QueryRequest(String sql, Map<String, String> tables, long timeoutMs) {

  public JsonObject toJson() {
    JsonArray list = new JsonArray();
    tables.forEach((name, url) -> list.add(new JsonObject().put("name", name).put("url", url)));
    return new JsonObject().put("sql", sql).put("tables", list).put("timeout_ms", timeoutMs);
  }

  public static QueryRequest fromJson(JsonObject json) {
    Map<String, String> tables = new LinkedHashMap<>();
    for (Object item : json.getJsonArray("tables", new JsonArray())) {
      JsonObject table = (JsonObject) item;
      tables.put(table.getString("name"), table.getString("url"));
    }
    return new QueryRequest(json.getString("sql"), tables, json.getLong("timeout_ms", 0L));
  }
}
