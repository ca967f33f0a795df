package io.quarry.llm;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The numbers an answer writes, read the way a person writes them, each with what kind of thing it is: a date, a
 * number (signed, grouped, scaled, a percentage, an amount of money), or something that only looks like a number (an
 * id, a UUID, a version, a time of day) and is no claim about the data. One scan, left to right: the first kind that
 * reads at a place wins, so that a date is not also read as three numbers and a UUID not as a number and some letters.
 */
final class NumberMentions {

  enum Kind { DATE, NUMBER, NOT_A_NUMBER }

  /** What the answer wrote at {@code position}: its text, its kind, and what it claims (null when not a number). */
  record Mention(String text, int position, Kind kind, ValueClaim claim) {
  }

  // Months with a capital, as English writes them: "may" and "march" in prose are verbs.
  private static final String MONTH = "(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?"
      + "|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\\.?";
  private static final String UUID = "(?<uuid>(?<![\\p{L}\\p{N}])\\p{XDigit}{8}(?:-\\p{XDigit}{4}){3}-\\p{XDigit}{12}"
      + "(?![\\p{L}\\p{N}]))";
  private static final String ISO = "(?<iso>(?<![\\p{L}\\p{N}.,/-])(?<isoY>\\d{4})-(?<isoM>0[1-9]|1[0-2])"
      + "(?:-(?<isoD>0[1-9]|[12]\\d|3[01])(?:[T ](?<isoH>[01]\\d|2[0-3]):(?<isoMin>[0-5]\\d)(?::(?<isoS>[0-5]\\d)"
      + "(?:\\.\\d+)?)?(?:Z|[+-]\\d{2}(?::?\\d{2})?)?)?)?(?![\\p{L}\\p{N}]|-\\d))";
  private static final String MDY = "(?<mdy>(?<![\\p{L}])(?<mdyM>" + MONTH + ")\\s+(?<mdyD>[1-9]|[12]\\d|3[01])"
      + "(?:st|nd|rd|th)?(?:,?\\s+(?<mdyY>\\d{4}))?(?![\\p{L}\\p{N}]))";
  private static final String DMY = "(?<dmy>(?<![\\p{L}\\p{N}.,])(?<dmyD>[1-9]|[12]\\d|3[01])(?:st|nd|rd|th)?\\s+"
      + "(?:of\\s+)?(?<dmyM>" + MONTH + ")(?:,?\\s+(?<dmyY>\\d{4}))?(?![\\p{L}\\p{N}]))";
  private static final String MY = "(?<my>(?<![\\p{L}])(?<myM>" + MONTH + "),?\\s+(?<myY>\\d{4})(?![\\p{L}\\p{N}]))";
  private static final String SLASH = "(?<slash>(?<![\\p{N}/.,])(?<slA>\\d{1,2})/(?<slB>\\d{1,2})/(?<slY>\\d{4})"
      + "(?![\\p{N}/]))";
  private static final String TIME = "(?<time>(?<![\\p{L}\\p{N}:.,])\\d{1,2}(?::\\d{2}(?::\\d{2})?(?:\\s?(?:[ap]\\.m\\."
      + "|[aApP][mM]))?|\\s?(?:[ap]\\.m\\.|[aApP][mM]))(?![\\p{L}\\p{N}]))";
  private static final String VERSION = "(?<version>(?<![\\p{L}\\p{N}.,])\\d+(?:\\.\\d+){2,}(?![\\p{N}]|\\.\\d))";
  private static final String NUMBER = "(?<number>(?<![\\p{L}\\p{N}_.,#/:$€£¥])(?<approx>[~≈]\\s?)?(?<sign>[-−+])?"
      + "(?<cur>[$€£¥]\\s?)?(?<sign2>[-−+])?(?<int>\\d{1,3}(?:,\\d{3})+|\\d{1,3}(?:[ \\u00A0\\u202F]\\d{3}(?!\\d))+|\\d+)"
      + "(?<frac>\\.\\d+)?(?:\\s?(?<pct>%|percent\\b|per cent\\b)|\\s?(?<abbr>[KkMB]|bn|mn)(?![\\p{L}\\p{N}])"
      + "|\\s(?<word>thousand|million|billion|trillion)\\b)?(?![\\p{L}\\p{N}_]|[.,]\\d))";
  // Letters and digits together (table1, Q3, 3rd, a1b2c3, INV-2024-001, 0x1F, v2.1): a name, never a quantity.
  private static final String IDENT = "(?<ident>(?<![\\p{L}\\p{N}_])(?=[\\p{L}\\p{N}_-]*\\p{L})(?=[\\p{L}\\p{N}_-]*\\p{N})"
      + "[\\p{L}\\p{N}_]+(?:[-.][\\p{L}\\p{N}_]+)*)";
  private static final Pattern MENTION = Pattern.compile(String.join("|", UUID, ISO, MDY, DMY, MY, SLASH, TIME,
      VERSION, NUMBER, IDENT));
  private static final Pattern CODE = Pattern.compile("```.*?```|`[^`]*`", Pattern.DOTALL);
  // "1. ", "2) ", and numbered headings ("## 2. Results"): list markers, not claims.
  private static final Pattern LIST_MARKER = Pattern.compile("(?m)^\\s*(?:#+\\s*)?\\d+[.)](?=\\s)");

  private NumberMentions() {
  }

  /** The mentions of {@code text}, in order; code and list markers are not read. */
  static List<Mention> of(String text) {
    List<Mention> mentions = new ArrayList<>();
    Matcher m = MENTION.matcher(blankOut(text));
    while (m.find()) {
      ValueClaim date = DateClaim.of(m);
      Kind kind = m.group("number") != null ? Kind.NUMBER : date != null ? Kind.DATE : Kind.NOT_A_NUMBER;
      ValueClaim claim = kind == Kind.NUMBER ? NumberClaim.of(m) : date;
      mentions.add(new Mention(m.group().strip(), m.start() + leading(m.group()), kind, claim));
    }
    return mentions;
  }

  private static int leading(String text) {
    return text.length() - text.stripLeading().length();
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
}
