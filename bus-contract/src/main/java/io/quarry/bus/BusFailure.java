package io.quarry.bus;

import io.vertx.core.json.JsonObject;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What a failure says, whether it was raised here or came back over the bus: a {@link QuarryException} brings its
 * structured fields ({@code details}, and e.g. {@code url} or {@code resets_in_seconds}) with it; any other failure is
 * its message alone.
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

  public static BusFailure of(Throwable t) {
    if (t instanceof QuarryException qe) {
      return new BusFailure(qe.failure(), qe.getMessage(), qe.fields());
    }
    return new BusFailure(Failure.classify(t), t.getMessage() == null ? "" : t.getMessage(), new JsonObject());
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
