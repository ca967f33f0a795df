package io.quarry.bus;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * A chart of a stored result, as render_chart and the page's "Chart this result" ask for it: {@code chart_type},
 * {@code x}, {@code y} (one or more), optional {@code series}, {@code aggregate}, {@code title}, {@code stacked}. It is
 * checked against the result's columns, and a spec that does not fit says what to change, so that a model can correct
 * its call. The chart itself is computed from every row of the result ({@link ChartData}).
 */
public final class ChartSpec {

  public static final List<String> TYPES =
      List.of("bar", "horizontal_bar", "line", "area", "scatter", "pie", "histogram", "heatmap");
  /** How rows sharing an x (and series) become one mark; {@code sum} when none is named. */
  public static final List<String> AGGREGATES = List.of("sum", "mean", "count", "min", "max");
  public static final String DATA_CHANGED = "The data has changed since this result: run its query again to chart"
      + " the data as it is now";

  private ChartSpec() {
  }

  /** A spec as {@link #validate} left it, read. {@code aggregate} is {@code sum} when it names none. */
  public record Read(String type, String x, List<String> ys, String series, String aggregate) {
  }

  public static Read read(JsonObject spec) {
    return new Read(spec.getString("chart_type"), spec.getString("x"),
        spec.getJsonArray("y", new JsonArray()).stream().map(String.class::cast).toList(), spec.getString("series"),
        spec.getString("aggregate", "sum"));
  }

  public static JsonObject validate(JsonObject args, QueryResult result) {
    List<String> columns = result.columnNames();
    String type = args.getString("chart_type", "");
    if (!TYPES.contains(type)) {
      throw new IllegalArgumentException("Unknown chart_type '" + type + "'; use one of " + String.join(", ", TYPES));
    }
    String aggregate = aggregate(args.getValue("aggregate"));
    String x = column(args.getValue("x"), "x", result);
    JsonArray y = new JsonArray();
    Object rawY = args.getValue("y");
    if (rawY instanceof String single) {
      y.add(column(single, "y", result));
    } else if (rawY instanceof JsonArray many) {
      for (Object item : many) {
        y.add(column(item, "y", result));
      }
    }
    if (y.isEmpty() && !type.equals("histogram") && !"count".equals(aggregate)) {
      throw new IllegalArgumentException("y must name at least one column of result " + result.id()
          + " (or aggregate be count); its columns are: " + String.join(", ", columns));
    }
    JsonObject spec = new JsonObject().put("chart_type", type).put("x", x).put("y", y);
    if (args.getValue("series") != null && !"".equals(args.getValue("series"))) {
      spec.put("series", column(args.getValue("series"), "series", result));
    }
    if (type.equals("heatmap") && !spec.containsKey("series") && y.size() > 1) {
      spec.put("series", y.remove(1));
    }
    if (type.equals("heatmap") && !spec.containsKey("series")) {
      throw new IllegalArgumentException("A heatmap needs series: the column of its rows (x is its columns)");
    }
    if (aggregate != null) {
      spec.put("aggregate", aggregate);
    }
    if (args.getValue("title") instanceof String title && !title.isBlank()) {
      spec.put("title", title);
    }
    if (Boolean.TRUE.equals(args.getValue("stacked"))) {
      spec.put("stacked", true);
    }
    return spec;
  }

  /** {@code value} when it names a column of {@code result}, else why not, naming its columns. */
  public static String column(Object value, String field, QueryResult result) {
    if (!(value instanceof String name) || !result.columnNames().contains(name)) {
      throw new IllegalArgumentException("Column '" + value + "' (" + field + ") is not in result " + result.id()
          + "; its columns are: " + String.join(", ", result.columnNames()));
    }
    return name;
  }

  private static String aggregate(Object value) {
    if (value == null || "".equals(value)) {
      return null;
    }
    if (!(value instanceof String name) || !AGGREGATES.contains(name)) {
      throw new IllegalArgumentException("Unknown aggregate '" + value + "'; use one of "
          + String.join(", ", AGGREGATES));
    }
    return name;
  }
}
