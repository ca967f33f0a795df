package io.quarry.llm;

import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Takes secrets out of what a model server says before Quarry passes it on (to the user, the log, the bus, the
 * history). A server that refuses a key may quote it: OpenAI masks it ({@code sk-proj-****abcd}), but proxies and
 * some compatible servers echo it whole, or the request's {@code Authorization} header, or a URL with {@code key=}.
 * Out go: the configured key, and any run of 8+ of its characters, or a whole word of 4+ (the tail OpenAI shows);
 * header values; {@code key=} parameters; and key-shaped strings whoever's key they are (Google's {@code AIza...},
 * {@code sk-...}, a long token with digits after "key", "token", "secret"). Ordinary words are left alone, "the key
 * column" and SQL among them.
 */
final class Redactor {

  static final String MARK = "[redacted]";

  static final int MAX_CHARS = 4_000;
  /** A shorter fragment of a key is no secret; a shorter key is none either (a fake's, a local server's). */
  private static final int MIN_FRAGMENT = 4;
  /** A run this long of a key's characters is redacted inside a word too: no word matches a key for so long. */
  private static final int MIN_GLUED = 8;

  /** The value of a header that carries a key, quoted in words or JSON, its scheme kept. */
  private static final Pattern HEADER = Pattern.compile("(?i)\\b((?:proxy-)?authorization|x-goog-api-key|x-api-key"
      + "|api-key)([\"']?\\s*[:=]\\s*[\"']?)((?:bearer|basic|token)\\s+)?[^\\s\"',;&]+");
  /** "Bearer" quoted without its header's name. */
  private static final Pattern BEARER = Pattern.compile("(?i)\\b(bearer\\s+)([A-Za-z0-9._~+/-]{8,}=*)");
  private static final Pattern QUERY_KEY = Pattern.compile("(?i)([?&](?:key|api[-_]?key|access_token|token)=)"
      + "[^&#\\s\"'<>]+");
  private static final Pattern USER_INFO = Pattern.compile("(?<=://)[^/\\s:@]+:[^/\\s@]+@");
  /** Google's keys are 39 characters from "AIza"; OpenAI's, DeepSeek's, OpenRouter's, Anthropic's begin "sk-". */
  private static final Pattern KEY_SHAPED = Pattern.compile("AIza[0-9A-Za-z_-]{30,}"
      + "|(?<![A-Za-z0-9])(?:sk|gsk|xai|hf)[-_][A-Za-z0-9_-]{16,}");
  private static final Pattern NAMED_SECRET = Pattern.compile("(?i)\\b(?:api[ _-]?key|key|token|secret|password"
      + "|credential)s?\\b[^A-Za-z0-9\\n]{0,4}(?:(?:is|was|provided|given)\\b[^A-Za-z0-9\\n]{0,4})?"
      + "([A-Za-z0-9._~+/=-]{16,})");
  private static final Pattern HAS_DIGIT = Pattern.compile("\\d");
  private static final Pattern HAS_LETTER = Pattern.compile("[A-Za-z]");

  private final List<String> keys;

  private Redactor(List<String> keys) {
    this.keys = keys;
  }

  /** For the keys Quarry sends a provider; blank or short ones are left out. */
  static Redactor of(String... keys) {
    return new Redactor(java.util.Arrays.stream(keys).filter(k -> k != null && k.length() >= MIN_FRAGMENT).toList());
  }

  /**
   * {@code text} without secrets, its first {@value #MAX_CHARS} characters only (then "…"): a server's error page can
   * be megabytes, and reading it costs ~0.4 µs a character on the event loop. Null stays null.
   */
  String apply(String text) {
    if (text == null || text.isEmpty()) {
      return text;
    }
    String out = text.length() <= MAX_CHARS ? text : text.substring(0, MAX_CHARS) + "…";
    for (String key : keys) {
      out = withoutKey(out, key);
    }
    out = HEADER.matcher(out).replaceAll(m -> Matcher.quoteReplacement(m.group(1) + m.group(2)
        + (m.group(3) == null ? "" : m.group(3)) + MARK));
    out = replaceGroup(BEARER, out, 2, Redactor::tokenShaped);
    out = QUERY_KEY.matcher(out).replaceAll(m -> Matcher.quoteReplacement(m.group(1) + MARK));
    out = USER_INFO.matcher(out).replaceAll(Matcher.quoteReplacement(MARK + "@"));
    out = KEY_SHAPED.matcher(out).replaceAll(Matcher.quoteReplacement(MARK));
    return replaceGroup(NAMED_SECRET, out, 1, Redactor::secretShaped);
  }

  /**
   * A copy of {@code e} and its causes for a log line with a stack trace: the same frames, the messages redacted (a
   * logged cause prints its message verbatim). The copy is a {@link Redacted}; its message begins with the class it
   * stands for.
   */
  Throwable scrub(Throwable e) {
    return scrub(e, 0);
  }

  private Throwable scrub(Throwable e, int depth) {
    if (e == null || depth > 16) {
      return null;
    }
    String message = e.getMessage() == null ? e.getClass().getName() : e.getClass().getName() + ": "
        + apply(e.getMessage());
    Redacted copy = new Redacted(message, scrub(e.getCause() == e ? null : e.getCause(), depth + 1));
    copy.setStackTrace(e.getStackTrace());
    return copy;
  }

  /** An exception as logged once its message has been through {@link #apply}. */
  static final class Redacted extends RuntimeException {
    Redacted(String message, Throwable cause) {
      super(message, cause, false, true);
    }
  }

  /**
   * Every run of 8+ characters of {@code key}, and every whole word of 4+ that is part of it (e.g. the tail after
   * OpenAI's mask). A 4-character run inside a longer word is left: "proj" of {@code sk-proj-...} in "project".
   */
  private static String withoutKey(String text, String key) {
    StringBuilder out = new StringBuilder(text.length());
    int i = 0;
    while (i < text.length()) {
      int run = longestRun(text, i, key);
      if (run >= MIN_GLUED || run == key.length() || run >= MIN_FRAGMENT && wholeWord(text, i, run)) {
        out.append(MARK);
        i += run;
      } else {
        out.append(text.charAt(i++));
      }
    }
    return out.toString();
  }

  /** The longest run of {@code text} from {@code at} that appears in {@code key}. */
  private static int longestRun(String text, int at, String key) {
    int best = 0;
    for (int k = key.indexOf(text.charAt(at)); k >= 0; k = key.indexOf(text.charAt(at), k + 1)) {
      int n = 0;
      while (at + n < text.length() && k + n < key.length() && text.charAt(at + n) == key.charAt(k + n)) {
        n++;
      }
      best = Math.max(best, n);
    }
    return best;
  }

  private static boolean wholeWord(String text, int from, int length) {
    int end = from + length;
    return (from == 0 || !Character.isLetterOrDigit(text.charAt(from - 1)))
        && (end == text.length() || !Character.isLetterOrDigit(text.charAt(end)));
  }

  private static String replaceGroup(Pattern pattern, String text, int group, Predicate<String> secret) {
    return pattern.matcher(text).replaceAll(m -> {
      String value = m.group(group);
      String whole = m.group();
      return Matcher.quoteReplacement(!secret.test(value) ? whole
          : whole.substring(0, m.start(group) - m.start()) + MARK + whole.substring(m.end(group) - m.start()));
    });
  }

  /** After "Bearer": a credential, not a word ("Bearer authentication"). */
  private static boolean tokenShaped(String value) {
    return value.length() >= 20 || HAS_DIGIT.matcher(value).find();
  }

  /** After "key", "token", "secret": letters and digits mixed, as a generated secret has and a word has not. */
  private static boolean secretShaped(String value) {
    return HAS_DIGIT.matcher(value).find() && HAS_LETTER.matcher(value).find();
  }
}
