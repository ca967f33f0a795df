package io.quarry.llm;

import java.util.regex.Pattern;

/**
 * A failed model request: its HTTP status (0 for transport failures and timeouts), the provider's message and, where
 * it gives one, its error code. The message is already redacted ({@link SseStream} makes every one through its
 * {@link Redactor}): it may be shown, stored and logged as it is.
 */
final class ModelException extends RuntimeException {

  /** Who failed, as the user is told: the speaker, and the setting that holds its key. */
  record Who(String speaker, String keyVariable) {
    static final Who GEMINI = new Who("Gemini", "GEMINI_API_KEY");
  }

  /** The code of an answer that arrived but could not be read: the message says so itself. */
  private static final String UNREADABLE = "unreadable";

  private static final Pattern CONTEXT_TOO_LARGE =
      Pattern.compile("(?i)(input token count.*exceeds|exceeds the maximum number of tokens|context (window|length))");

  private final Who who;
  private final int status;
  private final String code;
  private final boolean timedOut;

  ModelException(Who who, int status, String message, String code, boolean timedOut) {
    super(message, null, false, false);
    this.who = who;
    this.status = status;
    this.code = code;
    this.timedOut = timedOut;
  }

  /** An event that arrived but is not what the provider's API sends. */
  static ModelException unreadable(Who who, String what) {
    return new ModelException(who, 0, who.speaker() + " sent " + what, UNREADABLE, false);
  }

  /** The same failure, told in other words. */
  ModelException saying(String message) {
    return new ModelException(who, status, message, code, timedOut);
  }

  int status() {
    return status;
  }

  boolean timedOut() {
    return timedOut;
  }

  /** Worth another attempt when nothing was streamed yet: rate limits and server-side failures. */
  boolean retryable() {
    return status == 429 || status == 500 || status == 502 || status == 503 || status == 504;
  }

  /** Gemini says so in words; OpenAI's API with the code {@code context_length_exceeded} too. */
  boolean contextTooLarge() {
    return status == 400 && ("context_length_exceeded".equals(code) || CONTEXT_TOO_LARGE.matcher(getMessage()).find());
  }

  /** What the user is told. */
  String describe() {
    if (timedOut || UNREADABLE.equals(code)) {
      return getMessage();
    }
    String speaker = who.speaker();
    return switch (status) {
      case 0 -> "Could not reach " + speaker + ": " + getMessage();
      case 429 -> speaker + " is rate limiting requests; try again in a minute";
      case 500, 502, 503, 504 -> speaker + " is unavailable right now (HTTP " + status + "); try again shortly";
      case 401, 403 -> speaker + " refused the API key (HTTP " + status + "); check " + who.keyVariable();
      default -> speaker + " could not answer (HTTP " + status + ")";
    };
  }
}
