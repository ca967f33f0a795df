package io.quarry.llm;

import io.quarry.llm.NumberMentions.Kind;
import io.quarry.llm.NumberMentions.Mention;
import io.vertx.core.json.JsonArray;
import java.math.BigDecimal;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the turn asked and how, as the number check needs it: the numbers and dates the question states (an answer
 * repeating them is not claiming them from the data), the literals of the results' SQL (WHERE x > 100, LIMIT 5),
 * whether any result holds a date at all, and the results' text (an id's digits are a piece of it, not a number).
 */
record Asked(List<Mention> question, Set<BigDecimal> literals, boolean dated, List<NumberCheck.Values> results) {

  private static final Pattern LITERAL = Pattern.compile("(?<![\\p{L}\\p{N}_.])\\d+(?:\\.\\d+)?(?![\\p{L}\\p{N}_])");

  static Asked of(String question, List<NumberCheck.Values> results) {
    Set<BigDecimal> literals = new HashSet<>();
    boolean dated = false;
    for (NumberCheck.Values result : results) {
      Matcher m = LITERAL.matcher(result.sql() == null ? "" : result.sql());
      while (m.find()) {
        literals.add(new BigDecimal(m.group()).stripTrailingZeros());
      }
      dated = dated || holdsDate(result.rows());
    }
    return new Asked(NumberMentions.of(question), literals, dated, results);
  }

  private static boolean holdsDate(JsonArray rows) {
    for (int r = 0; r < rows.size(); r++) {
      JsonArray row = rows.getJsonArray(r);
      for (int c = 0; c < row.size(); c++) {
        if (DateClaim.fields(row.getValue(c)) != null) {
          return true;
        }
      }
    }
    return false;
  }

  /** The question states this number or date itself. */
  boolean states(Mention mention) {
    return question.stream().anyMatch(q -> q.kind() == mention.kind() && mention.kind() != Kind.NOT_A_NUMBER
        && same(q.claim(), mention.claim()));
  }

  private static boolean same(ValueClaim a, ValueClaim b) {
    if (a instanceof NumberClaim x && b instanceof NumberClaim y) {
      return x.percent() == y.percent() && x.number().abs().multiply(x.scale())
          .compareTo(y.number().abs().multiply(y.scale())) == 0;
    }
    return a.equals(b);
  }

  /** Some text of the results (not a number, not a date) has these digits within it: an id's ("…-446655440000"). */
  boolean partOfText(String digits) {
    for (NumberCheck.Values result : results) {
      for (int r = 0; r < result.rows().size(); r++) {
        JsonArray row = result.rows().getJsonArray(r);
        for (int c = 0; c < row.size(); c++) {
          if (row.getValue(c) instanceof String s && !s.equals(digits) && s.contains(digits)
              && NumberCheck.number(s) == null && DateClaim.fields(s) == null) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /** A literal of the SQL is this number. */
  boolean queried(NumberClaim number) {
    return literals.contains(number.number().abs().multiply(number.scale()).stripTrailingZeros());
  }
}
