package io.quarry.bus;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * A dataset's column profile: its rows, and per column its nulls, smallest and largest value and distinct values (an
 * estimate: DuckDB's {@code approx_count_distinct}, as its {@code SUMMARIZE} says). What a Parquet footer's row-group
 * statistics hold is read from them with no scan ({@link Column#fromStatistics}); the rest is computed, within a byte
 * budget, and a figure past it is null with {@code note} saying why. {@code top}: one column's most frequent values and
 * histogram, when asked for; null otherwise.
 */
public record Profile(long rows, List<Column> columns, Top top, String note) {

  /** Distinct counts are estimates, and say so. */
  public static final boolean DISTINCT_ESTIMATED = true;
  /** Most frequent values a profile lists. */
  public static final int TOP_VALUES = 10;
  /** Bins of a profile's histogram at most. */
  public static final int BINS = 20;

  public Profile {
    columns = List.copyOf(columns);
  }

  /**
   * One column. {@code nulls}, {@code min}, {@code max}, {@code distinct}: null when not known (past the budget, or
   * a type with no order); {@code min} and {@code max} are DuckDB's text of the values, as {@code SUMMARIZE} gives them.
   * {@code fromStatistics}: its nulls, min and max came from the footer's row-group statistics, with no scan.
   */
  public record Column(String name, String type, Long nulls, String min, String max, Long distinct,
      boolean fromStatistics) {

    JsonObject toJson() {
      return new JsonObject().put("name", name).put("type", type).put("nulls", nulls).put("min", min).put("max", max)
          .put("distinct", distinct).put("distinct_estimated", DISTINCT_ESTIMATED)
          .put("from_statistics", fromStatistics);
    }

    static Column fromJson(JsonObject json) {
      return new Column(json.getString("name"), json.getString("type"), json.getLong("nulls"), json.getString("min"),
          json.getString("max"), json.getLong("distinct"), json.getBoolean("from_statistics", false));
    }
  }

  /** A value and how many rows hold it. */
  public record Frequent(Object value, long count) {
  }

  /** Rows whose value is above the bin before's {@code upper} and at most this one's (the first: from the minimum). */
  public record Bin(Object upper, long count) {
  }

  /** A column's most frequent values (at most {@link #TOP_VALUES}) and, for a number, date or time, its histogram. */
  public record Top(String column, List<Frequent> values, List<Bin> histogram) {

    public Top {
      values = List.copyOf(values);
      histogram = List.copyOf(histogram);
    }

    JsonObject toJson() {
      return new JsonObject().put("column", column)
          .put("values", new JsonArray(values.stream().map(v -> new JsonObject().put("value", v.value())
              .put("count", v.count())).toList()))
          .put("histogram", new JsonArray(histogram.stream().map(b -> new JsonObject().put("upper", b.upper())
              .put("count", b.count())).toList()));
    }

    static Top fromJson(JsonObject json) {
      return json == null ? null : new Top(json.getString("column"),
          objects(json.getJsonArray("values")).stream().map(v -> new Frequent(v.getValue("value"),
              v.getLong("count", 0L))).toList(),
          objects(json.getJsonArray("histogram")).stream().map(b -> new Bin(b.getValue("upper"),
              b.getLong("count", 0L))).toList());
    }
  }

  /** The same profile with one column's most frequent values and histogram. */
  public Profile withTop(Top asked) {
    return new Profile(rows, columns, asked, note);
  }

  public JsonObject toJson() {
    JsonObject json = new JsonObject().put("rows", rows)
        .put("columns", new JsonArray(columns.stream().map(Column::toJson).toList()));
    if (top != null) {
      json.put("top", top.toJson());
    }
    return note == null ? json : json.put("note", note);
  }

  public static Profile fromJson(JsonObject json) {
    return new Profile(json.getLong("rows", 0L), objects(json.getJsonArray("columns")).stream()
        .map(Column::fromJson).toList(), Top.fromJson(json.getJsonObject("top")), json.getString("note"));
  }

  private static List<JsonObject> objects(JsonArray array) {
    return array == null ? List.of() : array.stream().map(JsonObject.class::cast).toList();
  }
}
