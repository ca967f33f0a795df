package io.quarry.llm;

import io.quarry.bus.ChartSpec;
import io.quarry.bus.QueryResult;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/** A render_table call checked against the result it names (render_chart's is {@link ChartSpec}). */
final class ChartSpecs {

  private ChartSpecs() {
  }

  /** The columns a render_table call shows: those named, or all. */
  static JsonArray tableColumns(JsonObject args, QueryResult result) {
    JsonArray wanted = args.getJsonArray("columns");
    if (wanted == null || wanted.isEmpty()) {
      return new JsonArray(List.copyOf(result.columnNames()));
    }
    JsonArray chosen = new JsonArray();
    for (Object name : wanted) {
      chosen.add(ChartSpec.column(name, "columns", result));
    }
    return chosen;
  }
}
