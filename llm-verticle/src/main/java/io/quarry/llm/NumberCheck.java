package io.quarry.llm;

import io.quarry.bus.QueryResult;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every number an answer states, looked up in the values of the results its turn produced or referred to — not
 * another model call, plain arithmetic. A number matches a value when the value, written at the precision the answer
 * shows, is that number: with or without thousands separators, rounded, as a percentage of a ratio, or abbreviated
 * (K, M, B; thousand, million, billion). A result's row count counts as one of its values. Numbers in code (the SQL),
 * list markers and numbers that are part of a word (table1) are not claims about the data, and are not checked.
 */
final class NumberCheck {

  /** A result as the check sees it: its id, its columns' names, its rows' values, its row count. */
  record Values(String resultId, List<String> columns, JsonArray rows, long totalRows) {
  }

  /** A stored result's values, as the check reads them. */
  static Values values(QueryResult result) {
    List<String> columns = result.columnNames();
    return new Values(result.id(), columns, result.rows().toJsonArray(), result.totalRows());
  }

  /** Where a number of the answer was found: the result, row (0-based) and column. */
  record Cell(String text, int position, String resultId, int row, String column) {
    JsonObject toJson() {
      return new JsonObject().put("text", text).put("position", position).put("result_id", resultId).put("row", row)
          .put("column", column);
    }
  }

  private static final Pattern NUMBER = Pattern.compile(
      "(?<![\\p{L}\\p{N}_.,])(-|−)?(\\d{1,3}(?:,\\d{3})+|\\d+)(\\.\\d+)?(?:\\s?(%|percent\\b)|\\s?([KkMB])\\b"
          + "|\\s(thousand|million|billion)\\b)?(?![\\p{L}_]|[.,]\\d)");
  private static final Pattern CODE = Pattern.compile("```.*?```|`[^`]*`", Pattern.DOTALL);
  private static final Pattern LIST_MARKER = Pattern.compile("(?m)^\\s*\\d+[.)]\\s");

  private NumberCheck() {
  }

  /** {@code {checked, matched, unmatched: [{text, position}], cells: [{text, position, result_id, row, column}]}}. */
  static JsonObject check(String answer, List<Values> results) {
    String text = blankOut(answer);
    JsonArray unmatched = new JsonArray();
    JsonArray cells = new JsonArray();
    int checked = 0;
    Matcher m = NUMBER.matcher(text);
    while (m.find()) {
      Claim claim = Claim.of(m);
      if (claim == null) {
        continue;
      }
      checked++;
      Cell cell = find(claim, m.group().strip(), m.start(), results);
      if (cell == null) {
        unmatched.add(new JsonObject().put("text", m.group().strip()).put("position", m.start()));
      } else {
        cells.add(cell.toJson());
      }
    }
    return new JsonObject().put("checked", checked).put("matched", cells.size()).put("unmatched", unmatched)
        .put("cells", cells);
  }

  /** Code and list markers become spaces: positions in what remains are positions in the answer. */
  private static String blankOut(String answer) {
    StringBuilder text = new StringBuilder(answer);
    for (Pattern p : List.of(CODE, LIST_MARKER)) {
      Matcher m = p.matcher(answer);
      while (m.find()) {
        for (int i = m.start(); i < m.end(); i++) {
          text.setCharAt(i, ' ');
        }
      }
    }
    return text.toString();
  }

  private static Cell find(Claim claim, String shown, int position, List<Values> results) {
    for (Values result : results) {
      if (claim.matches(BigDecimal.valueOf(result.totalRows()))) {
        return new Cell(shown, position, result.resultId(), -1, null);
      }
      for (int r = 0; r < result.rows().size(); r++) {
        JsonArray row = result.rows().getJsonArray(r);
        for (int c = 0; c < row.size() && c < result.columns().size(); c++) {
          BigDecimal value = number(row.getValue(c));
          if (value != null && claim.matches(value)) {
            return new Cell(shown, position, result.resultId(), r, result.columns().get(c));
          }
        }
      }
    }
    return null;
  }

  /** A cell's value as a number: numbers, and text that is one (decimals travel as text). */
  static BigDecimal number(Object value) {
    if (value instanceof Number n) {
      try {
        return new BigDecimal(n.toString());
      } catch (NumberFormatException e) {
        return null; // NaN, Infinity
      }
    }
    if (value instanceof String s && s.matches("-?\\d+(\\.\\d+)?([eE][-+]?\\d+)?")) {
      return new BigDecimal(s);
    }
    return null;
  }

  /** What the answer says: a number, how many decimals it shows, and how it is scaled. */
  private record Claim(BigDecimal number, int decimals, BigDecimal scale, boolean percent) {

    static Claim of(Matcher m) {
      String digits = m.group(2).replace(",", "") + (m.group(3) == null ? "" : m.group(3));
      BigDecimal number = new BigDecimal(digits);
      if (m.group(1) != null) {
        number = number.negate();
      }
      int decimals = m.group(3) == null ? 0 : m.group(3).length() - 1;
      boolean percent = m.group(4) != null;
      String unit = m.group(5) != null ? m.group(5) : m.group(6);
      return new Claim(number, decimals, scale(unit), percent);
    }

    private static BigDecimal scale(String unit) {
      if (unit == null) {
        return BigDecimal.ONE;
      }
      return switch (unit.toLowerCase(Locale.ROOT)) {
        case "k", "thousand" -> BigDecimal.valueOf(1_000);
        case "m", "million" -> BigDecimal.valueOf(1_000_000);
        default -> BigDecimal.valueOf(1_000_000_000);
      };
    }

    /** The value, shown as the answer shows it, is the answer's number. */
    boolean matches(BigDecimal value) {
      if (percent) {
        return shownAs(value) || shownAs(value.multiply(BigDecimal.valueOf(100)));
      }
      return shownAs(value.divide(scale, java.math.MathContext.DECIMAL64));
    }

    /** Rounded to the decimals shown (either way at a half: answers round both ways). */
    private boolean shownAs(BigDecimal value) {
      BigDecimal up = value.setScale(decimals, RoundingMode.HALF_UP);
      BigDecimal even = value.setScale(decimals, RoundingMode.HALF_EVEN);
      return up.compareTo(number) == 0 || even.compareTo(number) == 0;
    }
  }
}
