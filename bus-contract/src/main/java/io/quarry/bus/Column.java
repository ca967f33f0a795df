package io.quarry.bus;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/** A column of a dataset's schema or of a result: its name and DuckDB's type for it, as DuckDB spells it. */
public record Column(String name, String type) {

  /** The columns of a schema or result ({@code [{name, type, ...}]}), in order; none for null. */
  public static List<Column> of(JsonArray columns) {
    return columns == null ? List.of() : columns.stream().map(JsonObject.class::cast)
        .map(c -> new Column(c.getString("name"), c.getString("type"))).toList();
  }

  public JsonObject toJson() {
    return new JsonObject().put("name", name).put("type", type);
  }
}
