package io.quarry.llm;

import io.quarry.llm.NumberMentions.Mention;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * What the words around a number say it is: a claim about the data, or a rank, a limit, a position, a bound or a
 * count of the answer's own things ("top 5", "the 3 largest", "row 5", "over 1,000", "2 queries", "a 7-day
 * average"); approximate ("about", "roughly", "~"); a row count ("400 rows", "25 matching records").
 */
record NumberContext(boolean claim, boolean approximate, boolean rowsNext) {

  private static final Pattern NOT_A_CLAIM_BEFORE = Pattern.compile("(?:\\b(?:top|bottom|first|last|rank(?:ed)?"
      + "|rows?|lines?|steps?|pages?|items?|version|chapter|section|figure|table|query|option|no\\.|nr\\.|above"
      + "|below|under|exceeding|beyond|more than|less than|fewer than|at least|at most|up to|limit|only the)\\s*"
      + "|#\\s*)$");
  private static final Pattern NOT_A_CLAIM_AFTER = Pattern.compile("^(?:\\s*(?:largest|biggest|highest|lowest"
      + "|smallest|most|least|best|worst|top|bottom|greatest|fewest|columns?|quer(?:y|ies)|tables?|charts?|steps?"
      + "|datasets?|files?|times|decimals?|decimal places|digits?|characters?|sql)\\b|-\\p{L})");
  private static final Pattern APPROXIMATE_BEFORE = Pattern.compile("(?:\\b(?:about|around|approximately|approx\\.?"
      + "|roughly|nearly|almost|some|close to|circa|ca\\.)|[~≈])\\s*$");
  private static final Pattern ROWS_AFTER = Pattern.compile("^\\s*(?:\\p{L}+\\s+)?(?:rows?|records?|entries|entry"
      + "|lines|results)\\b");

  static NumberContext of(String answer, Mention mention) {
    int end = mention.position() + mention.text().length();
    String before = lower(answer.substring(Math.max(0, mention.position() - 30), mention.position()));
    String after = lower(answer.substring(end, Math.min(answer.length(), end + 30)));
    boolean claim = !NOT_A_CLAIM_BEFORE.matcher(before).find() && !NOT_A_CLAIM_AFTER.matcher(after).find();
    return new NumberContext(claim, APPROXIMATE_BEFORE.matcher(before).find(), ROWS_AFTER.matcher(after).find());
  }

  /** Markdown emphasis does not change what the words say. */
  private static String lower(String text) {
    return text.replaceAll("[*_]", "").toLowerCase(Locale.ROOT);
  }
}
