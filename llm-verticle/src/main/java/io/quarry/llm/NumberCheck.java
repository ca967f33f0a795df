package io.quarry.llm;

import io.quarry.bus.QueryResult;
import io.quarry.llm.NumberMentions.Kind;
import io.quarry.llm.NumberMentions.Mention;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Every number an answer states, looked up in the values of the results its turn produced or referred to — not
 * another model call, plain arithmetic. Each number gets one of four verdicts:
 * <ul>
 *   <li><b>found</b> ({@code cells}): exactly one value of the results is it, and the number links to that cell (or to
 *   a result's row count, row -1). When several values are it, a value in the same row as another number of the same
 *   sentence (or table line) that was found alone tells them apart: "the top score is 31.25 (reach about 1.2M)".</li>
 *   <li><b>several</b> ({@code several}: text, position, count): more than one value is it and nothing tells them
 *   apart — a small integer present in many cells. It is not a link to one of them, and not "not found".</li>
 *   <li><b>not found</b> ({@code unmatched}): it claims to come from the results and no value is it.</li>
 *   <li><b>not checked</b> (in no list): it is no claim about the results' values, or the check cannot tell.</li>
 * </ul>
 * How numbers are read (see {@link NumberClaim}, {@link DateClaim}): thousands separators (1,234,567; 1 234 567),
 * signs (−5, -5, +5), currency ($1,234.50, €3.2M, 1.2 billion dollars), percentages (12.5% of 0.125 or of 12.5),
 * rounding to the precision shown (30.45 of 30.450632; 1.2 million of 1,234,567; "about 3 k", "~3k", "about 3,000"),
 * dates and times (2000-01-01, 2000-01-01T10:00:00, "Jan 1, 2000", "1 January 2000", "January 2000") against DATE
 * and TIMESTAMP cells, and a year ("2008") against numbers and the years of dates. Before "rows" (records, entries…) a
 * number is the row count of a result that has that many, before anything else.
 * <p>Not checked, because they are not claims about the values:
 * <ul>
 *   <li>code (the SQL), list markers and numbered headings; ordinals (3rd), numbers after # or No.;</li>
 *   <li>names that mix letters and digits (table1, Q3, INV-2024-001, 0x1F, v2), UUIDs and hex strings, versions
 *   (1.2.3), times of day (10:30, 3 pm); when no value is it, digits (4 or more) that are a piece of a text value of
 *   the results, such as the last group of a UUID;</li>
 *   <li>ranks and limits ("top 5", "the 3 largest", "first 10"), positions ("row 5", "page 2", "step 3"), bounds
 *   ("over 1,000", "at least 5", "up to 10"), counts of the answer's own things ("2 queries", "4 columns");</li>
 *   <li>numbers the question itself states, and dates it states;</li>
 *   <li>when no value is it: a literal of the results' SQL (WHERE x > 100, LIMIT 5), a year when no result holds a
 *   date, a date when no result holds a date; everything when the turn has no result.</li>
 * </ul>
 * When unsure, the verdict is "not checked" rather than "not found": a check that marks right answers as unsupported
 * destroys the trust it is for.
 */
final class NumberCheck {

  /** A result as the check sees it: its id, its columns' names, its rows' values, its row count, its SQL (or null). */
  record Values(String resultId, List<String> columns, JsonArray rows, long totalRows, String sql) {

    Values(String resultId, List<String> columns, JsonArray rows, long totalRows) {
      this(resultId, columns, rows, totalRows, null);
    }
  }

  /** A stored result's values, as the check reads them. */
  static Values values(QueryResult result) {
    List<String> columns = result.columnNames();
    return new Values(result.id(), columns, result.rows().toJsonArray(), result.totalRows(), result.sql());
  }

  /** Where a number of the answer was found: the result, row (0-based; -1 for its row count) and column. */
  record Cell(String text, int position, String resultId, int row, String column) {
    JsonObject toJson() {
      return new JsonObject().put("text", text).put("position", position).put("result_id", resultId).put("row", row)
          .put("column", column);
    }

    String rowKey() {
      return resultId + "#" + row;
    }
  }

  private NumberCheck() {
  }

  /** As {@link #check(String, String, List)}, for an answer whose question is not known. */
  static JsonObject check(String answer, List<Values> results) {
    return check(answer, "", results);
  }

  /**
   * {@code {checked, matched, unmatched: [{text, position}], cells: [{text, position, result_id, row, column}],
   * several: [{text, position, count}]}}: {@code checked} counts the numbers found, several and not found.
   */
  static JsonObject check(String answer, String question, List<Values> results) {
    List<Verdict> verdicts = new ArrayList<>();
    if (!results.isEmpty()) {
      Asked asked = Asked.of(question == null ? "" : question, results);
      List<ReadCell[][]> read = results.stream().map(NumberCheck::read).toList();
      for (Mention mention : NumberMentions.of(answer)) {
        Verdict verdict = verdict(answer, mention, asked, results, read);
        if (verdict != null) {
          verdicts.add(verdict);
        }
      }
      tellApart(answer, verdicts);
    }
    return json(verdicts);
  }

  /** What the check says of one number; null when it is not checked. */
  private record Verdict(Mention mention, List<Cell> candidates) {
  }

  private static Verdict verdict(String answer, Mention mention, Asked asked, List<Values> results,
      List<ReadCell[][]> read) {
    if (mention.kind() == Kind.NOT_A_NUMBER || asked.states(mention)) {
      return null;
    }
    ValueClaim claim = mention.claim();
    boolean rowsNext = false;
    if (mention.kind() == Kind.NUMBER) {
      NumberContext context = NumberContext.of(answer, mention);
      if (!context.claim()) {
        return null;
      }
      claim = context.approximate() ? ((NumberClaim) claim).approximate() : claim;
      rowsNext = context.rowsNext();
    }
    List<Cell> candidates = candidates(claim, mention, results, read, rowsNext);
    if (candidates.isEmpty() && !claimsFromResults(mention, asked)) {
      return null;
    }
    return new Verdict(mention, candidates);
  }

  /** A number no value is: is it still a claim about the results' values? */
  private static boolean claimsFromResults(Mention mention, Asked asked) {
    if (mention.kind() == Kind.DATE) {
      return asked.dated();
    }
    NumberClaim number = (NumberClaim) mention.claim();
    if (number.year() && !asked.dated()) {
      return false;
    }
    if (number.plain() && mention.text().length() >= 4 && asked.partOfText(mention.text())) {
      return false;
    }
    return !asked.queried(number);
  }

  /** Every value of the results the claim is, and every row count; before "rows", the row counts alone if any is. */
  private static List<Cell> candidates(ValueClaim claim, Mention mention, List<Values> results, List<ReadCell[][]> read,
      boolean rowsNext) {
    List<Cell> counts = new ArrayList<>();
    List<Cell> cells = new ArrayList<>();
    Predicate<ReadCell> probe = claim.probe();
    for (int i = 0; i < results.size(); i++) {
      Values result = results.get(i);
      if (claim instanceof NumberClaim n && n.matches(BigDecimal.valueOf(result.totalRows()))) {
        counts.add(new Cell(mention.text(), mention.position(), result.resultId(), -1, null));
      }
      ReadCell[][] rows = read.get(i);
      for (int r = 0; r < rows.length; r++) {
        for (int c = 0; c < rows[r].length; c++) {
          if (probe.test(rows[r][c])) {
            cells.add(new Cell(mention.text(), mention.position(), result.resultId(), r, result.columns().get(c)));
          }
        }
      }
    }
    if (rowsNext && !counts.isEmpty()) {
      return counts.subList(0, 1);
    }
    counts.addAll(cells);
    return counts;
  }

  /** Each cell of a result read once: its rows, each cut to the result's columns. */
  private static ReadCell[][] read(Values result) {
    ReadCell[][] rows = new ReadCell[result.rows().size()][];
    for (int r = 0; r < rows.length; r++) {
      JsonArray row = result.rows().getJsonArray(r);
      rows[r] = new ReadCell[Math.min(row.size(), result.columns().size())];
      for (int c = 0; c < rows[r].length; c++) {
        rows[r][c] = ReadCell.of(row.getValue(c));
      }
    }
    return rows;
  }

  /**
   * A number several values are is linked after all when exactly one of them is in a row another number of its
   * sentence was found alone in.
   */
  private static void tellApart(String answer, List<Verdict> verdicts) {
    Map<Integer, Set<String>> rowsOfSentence = new HashMap<>();
    for (Verdict v : verdicts) {
      if (v.candidates().size() == 1 && v.candidates().get(0).row() >= 0) {
        rowsOfSentence.computeIfAbsent(sentence(answer, v.mention().position()), s -> new HashSet<>())
            .add(v.candidates().get(0).rowKey());
      }
    }
    for (int i = 0; i < verdicts.size(); i++) {
      Verdict v = verdicts.get(i);
      Set<String> rows = rowsOfSentence.getOrDefault(sentence(answer, v.mention().position()), Set.of());
      List<Cell> inRow = v.candidates().stream().filter(c -> rows.contains(c.rowKey())).toList();
      if (v.candidates().size() > 1 && inRow.size() == 1) {
        verdicts.set(i, new Verdict(v.mention(), inRow));
      }
    }
  }

  /** Which sentence (or line: a table's line is a row) of the answer a position is in. */
  private static int sentence(String answer, int position) {
    int sentence = 0;
    for (int i = 0; i < position; i++) {
      char c = answer.charAt(i);
      if (c == '\n' || (c == '.' || c == '!' || c == '?' || c == ';') && i + 1 < answer.length()
          && Character.isWhitespace(answer.charAt(i + 1))) {
        sentence++;
      }
    }
    return sentence;
  }

  private static JsonObject json(List<Verdict> verdicts) {
    JsonArray cells = new JsonArray();
    JsonArray several = new JsonArray();
    JsonArray unmatched = new JsonArray();
    for (Verdict v : verdicts) {
      Mention m = v.mention();
      if (v.candidates().isEmpty()) {
        unmatched.add(new JsonObject().put("text", m.text()).put("position", m.position()));
      } else if (v.candidates().size() == 1) {
        cells.add(v.candidates().get(0).toJson());
      } else {
        several.add(new JsonObject().put("text", m.text()).put("position", m.position())
            .put("count", v.candidates().size()));
      }
    }
    return new JsonObject().put("checked", verdicts.size()).put("matched", cells.size()).put("unmatched", unmatched)
        .put("cells", cells).put("several", several);
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
    if (value instanceof String s && s.length() < 40 && s.matches("-?\\d+(\\.\\d+)?([eE][-+]?\\d+)?")) {
      return new BigDecimal(s);
    }
    return null;
  }
}
