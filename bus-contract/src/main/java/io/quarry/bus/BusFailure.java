package io.quarry.bus;

import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A failure as it crosses the bus, encoded and decoded here only: {@code msg.fail(code, text)}, whose text is
 * the human message, then, when there is more, a blank line and a JSON object of the structured fields
 * ({@code details}, and e.g. {@code url} or {@code resets_in_seconds}). Anyone reading the text sees the
 * message first; no module reads the text itself.
 *
 * @param fields the structured fields besides code and message (never null)
 */
public record BusFailure(Failure failure, String message, JsonObject fields) {

  /** Details for people, e.g. the HTTP status a dataset's server answered. */
  public static final String DETAILS = "details";
  /** The dataset URL a query could not read (NETWORK). */
  public static final String URL = "url";
  /** When asking works again (RATE_LIMITED). */
  public static final String RESETS_IN_SECONDS = "resets_in_seconds";

  private static final String SEPARATOR = "\n\n";

  /** How a failure goes on the bus. */
  public static String encode(QuarryException e) {
    JsonObject fields = e.fields();
    return fields.isEmpty() ? e.getMessage() : e.getMessage() + SEPARATOR + fields.encode();
  }

  /** What a failure says, whether it was raised here or came back over the bus. */
  public static BusFailure of(Throwable t) {
    if (t instanceof QuarryException qe) {
      return new BusFailure(qe.failure(), qe.getMessage(), qe.fields());
    }
    String text = t.getMessage() == null ? "" : t.getMessage();
    Failure failure = Failure.classify(t);
    if (!(t instanceof ReplyException re) || re.failureType() != ReplyFailure.RECIPIENT_FAILURE) {
      return new BusFailure(failure, text, new JsonObject());
    }
    int split = text.indexOf(SEPARATOR);
    if (split < 0) {
      return new BusFailure(failure, text, new JsonObject());
    }
    return new BusFailure(failure, text.substring(0, split), fields(text.substring(split + SEPARATOR.length())));
  }

  /** A failure from a sender that put plain details after the blank line still reads as those details. */
  private static JsonObject fields(String trailer) {
    try {
      return new JsonObject(trailer);
    } catch (DecodeException | ClassCastException e) {
      return new JsonObject().put(DETAILS, trailer);
    }
  }

  public String details() {
    return fields.getString(DETAILS);
  }

  public Optional<String> url() {
    return Optional.ofNullable(fields.getString(URL));
  }

  public OptionalLong resetsInSeconds() {
    Long value = fields.getLong(RESETS_IN_SECONDS);
    return value == null ? OptionalLong.empty() : OptionalLong.of(value);
  }
}
