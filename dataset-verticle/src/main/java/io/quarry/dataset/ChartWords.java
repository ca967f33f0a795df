package io.quarry.dataset;

import io.quarry.bus.QueryResult;
import java.util.List;
import java.util.Locale;

/**
 * What a chart's rows are, in a sentence the chart carries under its title (and into its PNG and SVG) and the model
 * reads: which aggregate of what, over how many of the result's rows, in how many marks, sampled or cut short.
 */
final class ChartWords {

  private final ChartQuery query;
  private final QueryResult drawn;
  /** The statement's count: x's distinct values, or a histogram's rows without a value; null when it has none. */
  private final Long counted;
  /** The steps a continuous x had room for; null for other charts. */
  private final Long room;

  ChartWords(ChartQuery query, QueryResult drawn, Long counted, Long room) {
    this.query = query;
    this.drawn = drawn;
    this.counted = counted;
    this.room = room;
  }

  String shows() {
    long rows = query.resultRows();
    String all = rows == 1 ? "the result's one row" : "all " + n(rows) + " rows";
    String x = "'" + query.x().column() + "'";
    return switch (query.type()) {
      case "scatter" -> points(rows);
      case "histogram" -> "count of rows in " + ChartQuery.BINS + " equal bins of " + x + ": " + all
          + (counted != null && counted > 0 ? ", " + n(counted) + " without a value" : "");
      case "heatmap" -> what() + " for each " + x + " and '" + query.series() + "'" + heatSteps() + ": " + all
          + " in " + n(drawn.totalRows()) + " cells" + cut();
      default -> perX(all, x);
    };
  }

  private String perX(String all, String x) {
    if (counted != null && room != null && counted > room) {
      return what() + (query.series() == null ? "" : " by '" + query.series() + "'") + " in " + n(room)
          + " equal steps of " + x + " (" + n(counted) + " values): " + all;
    }
    if (drawn.truncated()) {
      return what() + " for the first " + n(drawn.rows().size()) + " of " + n(drawn.totalRows()) + " values of " + x
          + (query.series() == null ? "" : " and '" + query.series() + "'") + ", in the result's order, of " + all;
    }
    if (drawn.totalRows() == query.resultRows() && !query.aggregate().equals("count")) {
      return all + ", one mark each";
    }
    return what() + " for each " + x + (query.series() == null ? "" : " and '" + query.series() + "'") + ": " + all
        + " in " + n(drawn.totalRows()) + " marks";
  }

  /** A scatter's: all its points, or a sample; and the rows that lack a value to place. */
  private String points(long rows) {
    long points = counted == null ? drawn.totalRows() : counted;
    String lacking = points < rows ? " (" + n(rows - points) + " rows lack x or y)" : "";
    return (drawn.totalRows() < points ? "a uniform sample of " + n(drawn.totalRows()) + " of " + n(points) + " points"
        : "all " + n(points) + " points") + lacking;
  }

  private String heatSteps() {
    return query.heatSteps() ? " (numbers and dates in at most " + ChartQuery.HEAT_STEPS + " steps)" : "";
  }

  private String cut() {
    return drawn.truncated() ? ", the first " + n(drawn.rows().size()) + " of them drawn" : "";
  }

  private String what() {
    List<String> ys = query.ys();
    return ys.isEmpty() ? "count of rows" : query.aggregate() + " of " + String.join(", ", ys.stream()
        .map(y -> "'" + y + "'").toList());
  }

  private static String n(long count) {
    return String.format(Locale.ROOT, "%,d", count);
  }
}
