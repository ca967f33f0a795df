package io.quarry.bus;

/** A domain failure with a human-readable message, turned into {@code msg.fail(code, message)} by {@link Bus}. */
public class QuarryException extends RuntimeException {

  private final Failure failure;
  private final String details;

  public QuarryException(Failure failure, String message) {
    this(failure, message, null);
  }

  public QuarryException(Failure failure, String message, String details) {
    super(message, null, false, false);
    this.failure = failure;
    this.details = details;
  }

  public String details() {
    return details;
  }

  /** The text carried on the bus: message, then details after {@link Failure#DETAILS_SEPARATOR}. */
  public String busText() {
    return details == null ? getMessage() : getMessage() + Failure.DETAILS_SEPARATOR + details;
  }

  public Failure failure() {
    return failure;
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
}
