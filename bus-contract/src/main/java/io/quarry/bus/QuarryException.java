package io.quarry.bus;

import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonObject;

/**
 * A domain failure: its code, a human-readable message and optional structured fields. It is the bus's own failure
 * (a recipient's, with the code as {@link #failureCode()}), so a receiver's is the very one its caller gets, fields
 * and all, across the cluster too ({@link FailureCodec}).
 */
public class QuarryException extends ReplyException {

  private final Failure failure;
  private final JsonObject fields;

  public QuarryException(Failure failure, String message) {
    this(failure, message, new JsonObject());
  }

  public QuarryException(Failure failure, String message, String details) {
    this(failure, message, details == null ? new JsonObject() : new JsonObject().put(BusFailure.DETAILS, details));
  }

  protected QuarryException(Failure failure, String message, JsonObject fields) {
    super(ReplyFailure.RECIPIENT_FAILURE, failure.code(), message, true);
    this.failure = failure;
    this.fields = fields.copy();
  }

  public String details() {
    return fields.getString(BusFailure.DETAILS);
  }

  /** A copy of the structured fields (see {@link BusFailure}). */
  public JsonObject fields() {
    return fields.copy();
  }

  public Failure failure() {
    return failure;
  }

  /** This failure as the bus carries it: its codec is registered for this class, not for subclasses. */
  QuarryException asSent() {
    return getClass() == QuarryException.class ? this : new QuarryException(failure, getMessage(), fields);
  }

  public static QuarryException badRequest(String message) {
    return new QuarryException(Failure.BAD_REQUEST, message);
  }

  public static QuarryException notFound(String message) {
    return new QuarryException(Failure.NOT_FOUND, message);
  }

  public static QuarryException conflict(String message) {
    return new QuarryException(Failure.CONFLICT, message);
  }

  /** A query could not read the dataset at {@code url}: the seed's message names it, the failure carries it. */
  public static QuarryException unreachable(String url, String reason) {
    return new QuarryException(Failure.NETWORK, "The dataset at " + url + " is no longer accessible",
        new JsonObject().put(BusFailure.DETAILS, reason).put(BusFailure.URL, url));
  }

  /** Refused for now; asking works again in {@code resetsInSeconds} (0: as soon as what holds it ends). */
  public static QuarryException rateLimited(String message, long resetsInSeconds) {
    return new QuarryException(Failure.RATE_LIMITED, message, new JsonObject().put(BusFailure.RESETS_IN_SECONDS,
        resetsInSeconds));
  }
}
