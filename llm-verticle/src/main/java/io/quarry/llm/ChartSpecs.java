package io.quarry.llm;

import io.quarry.bus.QueryResult;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A render_chart call checked against the result it names. An invalid one goes back to the model as a
 * tool error that says what to change, so it can correct itself.
 */
final class ChartSpecs {

  private ChartSpecs() {
  }

  static JsonObject validate(JsonObject args, QueryResult result) {
    List<String> columns = result.columnNames();
    String type = args.getString("chart_type", "");
    if (!Tools.CHART_TYPES.contains(type)) {
      throw new IllegalArgumentException("Unknown chart_type '" + type + "'; use one of " + String.join(", ", Tools.CHART_TYPES));
    }
    String x = column(args.getValue("x"), "x", columns, result.id());
    JsonArray y = new JsonArray();
    Object rawY = args.getValue("y");
    if (rawY instanceof String single) {
      y.add(column(single, "y", columns, result.id()));
    } else if (rawY instanceof JsonArray many) {
      for (Object item : many) {
        y.add(column(item, "y", columns, result.id()));
      }
    }
    if (y.isEmpty() && !type.equals("histogram")) {
      throw new IllegalArgumentException("y must name at least one column of result " + result.id() + "; its columns are: "
          + String.join(", ", columns));
    }
    JsonObject spec = new JsonObject().put("chart_type", type).put("x", x).put("y", y);
    if (args.getValue("series") != null && !"".equals(args.getValue("series"))) {
      spec.put("series", column(args.getValue("series"), "series", columns, result.id()));
    }
    if (args.getValue("title") instanceof String title && !title.isBlank()) {
      spec.put("title", title);
    }
    if (Boolean.TRUE.equals(args.getValue("stacked"))) {
      spec.put("stacked", true);
    }
    return spec;
  }

  /** The columns a render_table call shows: those named, or all. */
  static JsonArray tableColumns(JsonObject args, QueryResult result) {
    List<String> all = result.columnNames();
    JsonArray wanted = args.getJsonArray("columns");
    if (wanted == null || wanted.isEmpty()) {
      return new JsonArray(List.copyOf(all));
    }
    Set<String> known = Set.copyOf(all);
    JsonArray chosen = new JsonArray();
    for (Object name : wanted) {
      chosen.add(column(name, "columns", all, result.id()));
    }
    if (!known.containsAll(chosen.getList())) {
      throw new IllegalArgumentException("Unknown columns");
    }
    return chosen;
  }

  private static String column(Object value, String field, List<String> columns, String resultId) {
    if (!(value instanceof String name) || !columns.contains(name)) {
      throw new IllegalArgumentException("Column '" + value + "' (" + field + ") is not in result " + resultId
          + "; its columns are: " + columns.stream().collect(Collectors.joining(", ")));
    }
    return name;
  }
}
