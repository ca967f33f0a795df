package io.quarry.bus;

/** A domain failure with a human-readable message, turned into {@code msg.fail(code, message)} by {@link Bus}. */
public class QuarryException extends RuntimeException {

  private final Failure failure;

  public QuarryException(Failure failure, String message) {
    super(message, null, false, false);
    this.failure = failure;
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
