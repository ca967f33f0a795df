package io.quarry.llm;

import java.util.regex.Pattern;

/** A failed Gemini request: its HTTP status (0 for transport failures and timeouts) and Gemini's message. */
final class GeminiException extends RuntimeException {

  private static final Pattern CONTEXT_TOO_LARGE =
      Pattern.compile("(?i)(input token count.*exceeds|exceeds the maximum number of tokens|context (window|length))");

  private final int status;
  private final boolean timedOut;

  GeminiException(int status, String message, boolean timedOut) {
    super(message, null, false, false);
    this.status = status;
    this.timedOut = timedOut;
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

  boolean contextTooLarge() {
    return status == 400 && CONTEXT_TOO_LARGE.matcher(getMessage()).find();
  }

  /** What the user is told. */
  String describe() {
    if (timedOut) {
      return getMessage();
    }
    return switch (status) {
      case 0 -> "Could not reach Gemini: " + getMessage();
      case 429 -> "Gemini is rate limiting requests; try again in a minute";
      case 500, 502, 503, 504 -> "Gemini is unavailable right now (HTTP " + status + "); try again shortly";
      case 401, 403 -> "Gemini refused the API key (HTTP " + status + "); check GEMINI_API_KEY";
      default -> "Gemini could not answer (HTTP " + status + ")";
    };
  }
}
