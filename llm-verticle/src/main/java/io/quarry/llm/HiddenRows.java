package io.quarry.llm;

import io.quarry.bus.QueryResult;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A chart never hides a row: when x repeats in a result's rows and no series tells those rows apart, one mark per
 * row would draw some over others. The browser then colours by a categorical column that tells them apart, or sums y
 * for each x; this note tells the model so, naming the columns it may pass as series itself.
 */
final class HiddenRows {

  /** Chart types that draw one mark per x (per series), as the browser's chart-rows.js. */
  private static final Set<String> PER_X = Set.of("bar", "horizontal_bar", "line", "area");
  private static final Pattern NOT_A_CATEGORY =
      Pattern.compile("(?i)^(U?(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT)|INT\\d?|FLOAT\\d?|DOUBLE|REAL|DECIMAL.*|NUMERIC.*"
          + "|.*DATE.*|.*TIME.*)$");

  private HiddenRows() {
  }

  /** What the model should know about rows its chart would hide, or null when none would be. */
  static String note(JsonObject spec, QueryResult result) {
    if (spec.containsKey("series") || !PER_X.contains(spec.getString("chart_type"))) {
      return null;
    }
    JsonArray rows = result.rows().toJsonArray();
    String x = spec.getString("x");
    int xs = distinct(rows, result, List.of(x));
    if (xs == rows.size()) {
      return null;
    }
    List<String> series = result.columns().stream().map(c -> (JsonObject) c)
        .filter(c -> !c.getString("name").equals(x) && !spec.getJsonArray("y").contains(c.getString("name")))
        .filter(c -> !NOT_A_CATEGORY.matcher(c.getString("type", "").trim()).matches())
        .map(c -> c.getString("name"))
        .filter(name -> distinct(rows, result, List.of(x, name)) == rows.size())
        .toList();
    String repeats = "x '" + x + "' repeats: " + rows.size() + " rows have " + xs + " values of it, so one mark per row"
        + " would hide rows. ";
    if (series.isEmpty()) {
      return repeats + "The chart sums y for each x and says so in its subtitle.";
    }
    return repeats + "The chart colours the rows by '" + series.get(0) + "'; to choose, call render_chart again with"
        + " series set to one of: " + String.join(", ", series) + ".";
  }

  private static int distinct(JsonArray rows, QueryResult result, List<String> names) {
    List<Integer> at = names.stream().map(name -> indexOf(result, name)).toList();
    Set<List<Object>> seen = new HashSet<>();
    for (Object row : rows) {
      JsonArray cells = (JsonArray) row;
      seen.add(at.stream().map(cells::getValue).toList());
    }
    return seen.size();
  }

  private static int indexOf(QueryResult result, String name) {
    JsonArray columns = result.columns();
    for (int i = 0; i < columns.size(); i++) {
      if (name.equals(columns.getJsonObject(i).getString("name"))) {
        return i;
      }
    }
    return -1;
  }
}
