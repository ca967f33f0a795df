package io.quarry.dataset;

import io.quarry.bus.Column;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * What changed between two runs of a scheduled question. Rows are keyed by their non-numeric columns (a row with the
 * same key in both runs whose numbers differ changed; one in the new run only was added; one in the old only was
 * removed); a result with no such column is keyed by position. The numbers that moved are each numeric column's
 * total, before and after. The summary reads as the page writes numbers (grouped thousands): "3 rows added, total
 * 1,204 → 1,377", naming the column when there are several; "no change" when nothing moved.
 */
final class RunComparison {

  private static final Pattern NUMERIC = Pattern.compile("(?i)(U?(TINY|SMALL|BIG|HUGE)?INT(EGER)?|FLOAT|DOUBLE|REAL"
      + "|DECIMAL.*|NUMERIC.*|INT[0-9]+|FLOAT[0-9]+)");
  static final String FIRST = "First run: nothing to compare with yet";

  private RunComparison() {
  }

  /** The first run's comparison: nothing before it, its rows and totals. */
  static JsonObject first(JsonArray columns, JsonArray rows) {
    JsonObject json = new JsonObject().put("first", true).put("rows_before", null).put("rows_after", rows.size())
        .put("added", 0).put("removed", 0).put("changed", 0).put("moved", new JsonArray());
    return json.put("summary", FIRST + " (" + count(rows.size(), "row") + ")");
  }

  /** A numeric column's total that moved. */
  private record Moved(String column, BigDecimal before, BigDecimal after) {
    JsonObject toJson() {
      return new JsonObject().put("column", column).put("before", number(before)).put("after", number(after))
          .put("change", number(after.subtract(before)));
    }
  }

  /** {@code before}'s columns may differ from {@code after}'s (the SQL is the same; the file's schema may not be). */
  static JsonObject compare(JsonArray beforeColumnsJson, JsonArray beforeRows, JsonArray columnsJson, JsonArray rows) {
    List<Column> beforeColumns = beforeColumnsJson == null ? List.of() : Column.of(beforeColumnsJson);
    List<Column> columns = Column.of(columnsJson);
    List<Integer> numeric = new ArrayList<>();
    List<Integer> keys = new ArrayList<>();
    for (int i = 0; i < columns.size(); i++) {
      (isNumeric(columns.get(i).type()) ? numeric : keys).add(i);
    }
    Map<String, JsonArray> before = keyed(beforeRows, keys);
    Map<String, JsonArray> after = keyed(rows, keys);
    int added = 0;
    int changed = 0;
    for (Map.Entry<String, JsonArray> row : after.entrySet()) {
      JsonArray old = before.get(row.getKey());
      if (old == null) {
        added++;
      } else if (!old.equals(row.getValue())) {
        changed++;
      }
    }
    int removed = (int) before.keySet().stream().filter(key -> !after.containsKey(key)).count();
    List<Moved> moved = new ArrayList<>();
    for (int i : numeric) {
      String name = columns.get(i).name();
      int old = indexOf(beforeColumns, name);
      BigDecimal was = old < 0 ? BigDecimal.ZERO : total(beforeRows, old);
      BigDecimal now = total(rows, i);
      if (was.compareTo(now) != 0) {
        moved.add(new Moved(name, was, now));
      }
    }
    JsonObject json = new JsonObject().put("first", false).put("rows_before", beforeRows.size())
        .put("rows_after", rows.size()).put("added", added).put("removed", removed).put("changed", changed)
        .put("moved", new JsonArray(moved.stream().map(Moved::toJson).toList()));
    return json.put("summary", summary(added, removed, changed, moved, numeric.size() > 1));
  }

  private static String summary(int added, int removed, int changed, List<Moved> moved, boolean nameColumns) {
    List<String> parts = new ArrayList<>();
    if (added > 0) {
      parts.add(count(added, "row") + " added");
    }
    if (removed > 0) {
      parts.add(count(removed, "row") + " removed");
    }
    if (changed > 0) {
      parts.add(count(changed, "row") + " changed");
    }
    for (Moved m : moved) {
      parts.add((nameColumns ? m.column() + " " : "") + "total " + shown(m.before()) + " → " + shown(m.after()));
    }
    return parts.isEmpty() ? "no change" : String.join(", ", parts);
  }

  static boolean isNumeric(String type) {
    return type != null && NUMERIC.matcher(type.strip()).matches();
  }

  /** Keyed by the key columns' values; a repeated key counts its occurrences, so two equal rows stay two. */
  private static Map<String, JsonArray> keyed(JsonArray rows, List<Integer> keys) {
    Map<String, JsonArray> keyed = new LinkedHashMap<>();
    Map<String, Integer> seen = new HashMap<>();
    for (int r = 0; r < rows.size(); r++) {
      JsonArray row = rows.getJsonArray(r);
      JsonArray key = new JsonArray();
      keys.forEach(i -> key.add(i < row.size() ? row.getValue(i) : null));
      String base = keys.isEmpty() ? "#" + r : key.encode();
      int n = seen.merge(base, 1, Integer::sum);
      keyed.put(n == 1 ? base : base + "#" + n, row);
    }
    return keyed;
  }

  private static int indexOf(List<Column> columns, String name) {
    for (int i = 0; i < columns.size(); i++) {
      if (name.equals(columns.get(i).name())) {
        return i;
      }
    }
    return -1;
  }

  private static BigDecimal total(JsonArray rows, int column) {
    BigDecimal sum = BigDecimal.ZERO;
    for (int r = 0; r < rows.size(); r++) {
      JsonArray row = rows.getJsonArray(r);
      Object value = column < row.size() ? row.getValue(column) : null;
      if (value instanceof Number || value instanceof String) {
        try {
          sum = sum.add(new BigDecimal(value.toString()));
        } catch (NumberFormatException e) {
          // Not a number after all (a NaN, an infinity): it moves no total.
        }
      }
    }
    return sum;
  }

  /** A whole total as a long, any other as a double: JSON numbers a client reads as it reads any. */
  private static Number number(BigDecimal value) {
    BigDecimal stripped = value.stripTrailingZeros();
    if (stripped.scale() <= 0 && stripped.abs().compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) < 0) {
      return stripped.longValueExact();
    }
    return value.doubleValue();
  }

  /** As the page shows numbers: grouped thousands, at most three decimals. */
  static String shown(BigDecimal number) {
    DecimalFormat format = new DecimalFormat("#,##0.###", DecimalFormatSymbols.getInstance(Locale.US));
    return format.format(number);
  }

  private static String count(int n, String noun) {
    return String.format(Locale.US, "%,d", n) + " " + noun + (n == 1 ? "" : "s");
  }
}
