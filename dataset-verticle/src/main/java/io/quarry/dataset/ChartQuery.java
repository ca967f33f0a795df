package io.quarry.dataset;

import static io.quarry.dataset.ChartAxis.quote;

import io.quarry.bus.ChartData;
import io.quarry.bus.ChartSpec;
import io.quarry.bus.QueryResult;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * A chart of every row of a stored result, as one SQL statement around the result's own: bar, line, area and pie
 * aggregate y by x (and series), in the result's order for a category x and along a continuous axis for a numeric or
 * date one (cut into at most {@link #STEPS} steps); a histogram counts rows in {@link #BINS} equal bins; a scatter
 * draws every point, or a uniform sample of {@link #STEPS} of them; a heat map aggregates by x and series, each cut
 * into at most {@link #HEAT_STEPS} steps when continuous. What the rows drawn are is said in words ({@link #data}).
 */
final class ChartQuery {

  /** Marks at most: the rows a result carries. */
  static final int STEPS = QueryResult.MAX_ROWS;
  static final int BINS = 30;
  static final int HEAT_STEPS = 20;
  /** A last column some statements add: how many values x had (or, for a histogram, rows without one). */
  private static final String COUNTED = "__quarry_counted";
  /** The steps a continuous x had room for: fewer when a series shares the chart's marks. */
  private static final String ROOM = "__quarry_room";

  private final JsonObject spec;
  private final QueryResult result;
  private final String type;
  private final ChartAxis x;
  private final List<String> ys;
  private final String series;
  private final String aggregate;

  ChartQuery(JsonObject spec, QueryResult result) {
    this.spec = spec;
    this.result = result;
    ChartSpec.Read read = ChartSpec.read(spec);
    this.type = read.type();
    this.ys = read.ys();
    this.series = read.series();
    this.x = axis(read.x(), type.equals("heatmap") ? String.valueOf(HEAT_STEPS) : series == null
        ? String.valueOf(STEPS) : "greatest(1, " + STEPS + " // " + ChartAxis.quote("__quarry_series") + ")");
    this.aggregate = read.aggregate();
    if (type.equals("histogram") && !ChartAxis.numeric(x.type())) {
      throw new IllegalArgumentException("A histogram needs a numeric x; '" + x.column() + "' is " + x.type());
    }
  }

  String sql() {
    return switch (type) {
      case "histogram" -> histogram();
      case "scatter" -> points();
      case "heatmap" -> heatMap();
      default -> perX();
    };
  }

  /** The rows drawn, and what they are. */
  ChartData data(QueryResult drawn) {
    JsonArray columns = drawn.columns().copy();
    List<String> names = new ArrayList<>(drawn.columnNames());
    JsonArray rows = drawn.rowValues();
    Long room = meta(names, columns, rows, ROOM);
    Long counted = meta(names, columns, rows, COUNTED);
    return new ChartData(spec, columns, rows, new ChartWords(this, drawn, counted, room).shows());
  }

  /** A last column of the statement's own, taken out of the rows drawn: its value, or null without one. */
  private static Long meta(List<String> names, JsonArray columns, JsonArray rows, String name) {
    if (names.isEmpty() || !name.equals(names.get(names.size() - 1))) {
      return null;
    }
    names.remove(names.size() - 1);
    columns.remove(columns.size() - 1);
    Long value = null;
    for (Object row : rows) {
      JsonArray cells = (JsonArray) row;
      value = cells.getLong(cells.size() - 1);
      cells.remove(cells.size() - 1);
    }
    return value;
  }

  String type() {
    return type;
  }

  ChartAxis x() {
    return x;
  }

  String series() {
    return series;
  }

  List<String> ys() {
    return ys;
  }

  String aggregate() {
    return aggregate;
  }

  long resultRows() {
    return result.totalRows();
  }

  /** Whether x is drawn continuously (a numeric or date x of a bar, line or area chart). */
  boolean continuousX() {
    return x.continuous() && List.of("bar", "line", "area").contains(type);
  }

  private String perX() {
    List<String> groups = new ArrayList<>();
    groups.add(continuousX() ? x.expression() + " AS " + quote(x.column()) : quote(x.column()));
    if (series != null) {
      groups.add(quote(series));
    }
    String select = String.join(", ", groups) + ", " + aggregates();
    String by = "GROUP BY " + (series == null ? "1" : "1, 2");
    if (continuousX()) {
      String seriesCount = series == null ? "" : ", count(DISTINCT " + quote(series) + ") AS \"__quarry_series\"";
      return "WITH charted AS (SELECT * FROM " + inner() + "), bounds AS (SELECT " + x.bounds() + seriesCount
          + " FROM charted)\n"
          + "SELECT " + select + ", any_value(" + x.bound("n") + ") AS " + COUNTED + ", any_value(" + x.steps()
          + ") AS " + ROOM + " FROM charted, bounds " + by + " ORDER BY " + (series == null ? "1" : "1, 2");
    }
    // A category axis keeps the result's order: a top-N stays ranked.
    return "WITH charted AS (SELECT *, row_number() OVER () AS __quarry_row FROM " + inner() + ")\n"
        + "SELECT " + select + " FROM charted " + by + " ORDER BY min(__quarry_row)";
  }

  private String histogram() {
    return "WITH charted AS (SELECT CAST(" + quote(x.column()) + " AS DOUBLE) AS v FROM " + inner() + "),\n"
        + "bounds AS (SELECT min(v) AS lo, CASE WHEN max(v) > min(v) THEN (max(v) - min(v)) / " + BINS
        + " ELSE 1 END AS w, count(*) - count(v) AS missing FROM charted),\n"
        + "binned AS (SELECT least(CAST(floor((v - lo) / w) AS BIGINT), " + (BINS - 1) + ") AS bin, lo, w, missing"
        + " FROM charted, bounds WHERE v IS NOT NULL)\n"
        + "SELECT any_value(lo) + bin * any_value(w) AS bin_start, any_value(lo) + (bin + 1) * any_value(w) AS bin_end,"
        + " count(*) AS count, any_value(missing) AS " + COUNTED + " FROM binned GROUP BY bin ORDER BY bin";
  }

  /** Points that have an x and a y: every one, or a uniform sample; the last column counts them all. */
  private String points() {
    List<String> columns = new ArrayList<>();
    columns.add(quote(x.column()));
    ys.stream().filter(y -> !y.equals(x.column())).forEach(y -> columns.add(quote(y)));
    if (series != null && !series.equals(x.column()) && !ys.contains(series)) {
      columns.add(quote(series));
    }
    String drawable = quote(x.column()) + " IS NOT NULL" + (ys.isEmpty() ? "" : " AND coalesce("
        + String.join(", ", ys.stream().map(ChartAxis::quote).toList()) + ") IS NOT NULL");
    String sample = sampled() ? " USING SAMPLE reservoir(" + STEPS + " ROWS) REPEATABLE (7)" : "";
    return "WITH charted AS MATERIALIZED (SELECT " + String.join(", ", columns) + " FROM " + inner() + " WHERE "
        + drawable + ")\nSELECT *, (SELECT count(*) FROM charted) AS " + COUNTED + " FROM charted" + sample;
  }

  /** Whether a heat map's numbers and dates are cut into steps (when they have more values than steps). */
  boolean heatSteps() {
    return x.continuous() || axis(series, String.valueOf(HEAT_STEPS)).continuous();
  }

  boolean sampled() {
    return type.equals("scatter") && result.totalRows() > STEPS;
  }

  private String heatMap() {
    ChartAxis rows = axis(series, String.valueOf(HEAT_STEPS));
    return "WITH charted AS (SELECT * FROM " + inner() + "), bounds AS (SELECT " + x.bounds() + ", " + rows.bounds()
        + " FROM charted)\n"
        + "SELECT " + x.expression() + " AS " + quote(x.column()) + ", " + rows.expression() + " AS " + quote(series)
        + ", " + aggregates() + " FROM charted, bounds GROUP BY 1, 2 ORDER BY 1, 2";
  }

  /** Each y aggregated under its own name; a count of rows when there is no y. */
  private String aggregates() {
    if (ys.isEmpty()) {
      return "count(*) AS \"count\"";
    }
    String function = aggregate.equals("mean") ? "avg" : aggregate;
    return String.join(", ", ys.stream().map(y -> function + "(" + quote(y) + ") AS " + quote(y)).toList());
  }

  /** The result's own SQL as a subquery: the newline ends a trailing line comment, a trailing semicolon goes. */
  private String inner() {
    return "(\n" + result.sql().strip().replaceAll(";+\\s*$", "") + "\n) AS charted_rows";
  }

  private ChartAxis axis(String name, String steps) {
    return new ChartAxis(name, result.columnType(name), steps);
  }
}
