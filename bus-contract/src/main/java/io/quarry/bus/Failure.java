package io.quarry.bus;

import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;

/**
 * Failure codes carried by {@code msg.fail(code, text)}. The numbers follow HTTP statuses so that
 * logs read naturally, but they are domain codes: only the edge turns them into HTTP responses.
 */
public enum Failure {
  BAD_REQUEST(400),
  UNAUTHORIZED(401),
  /** Signed in, but not allowed: an API token whose scope does not cover the request. */
  FORBIDDEN(403),
  NOT_FOUND(404),
  CONFLICT(409),
  TOO_LARGE(413),
  /** The SQL itself is wrong: syntax, unknown column or table, type mismatch. */
  SQL(422),
  RATE_LIMITED(429),
  INTERNAL(500),
  /** A dataset's URL could not be read while running a query. */
  NETWORK(502),
  UNAVAILABLE(503),
  /** A query ran past its time limit and was cancelled. */
  TIMEOUT(504);

  private final int code;

  Failure(int code) {
    this.code = code;
  }

  public int code() {
    return code;
  }

  /** The {@code error_type} of a query failure: sql, timeout, network, validation or internal. */
  public String errorType() {
    return switch (this) {
      case SQL -> "sql";
      case TIMEOUT -> "timeout";
      case NETWORK -> "network";
      case BAD_REQUEST, TOO_LARGE -> "validation";
      default -> "internal";
    };
  }

  /** The human message of a failure, without its details (see {@link BusFailure}). */
  public static String messageOf(Throwable t) {
    return BusFailure.of(t).message();
  }

  /** The optional details of a failure, or null. */
  public static String detailsOf(Throwable t) {
    return BusFailure.of(t).details();
  }

  public static Failure ofCode(int code) {
    for (Failure f : values()) {
      if (f.code == code) {
        return f;
      }
    }
    return INTERNAL;
  }

  /**
   * Classifies any failure of a bus request: infrastructure failures (timeout, nobody listening)
   * become {@link #UNAVAILABLE}; a recipient's failure keeps its code; anything else is internal.
   */
  public static Failure classify(Throwable t) {
    if (t instanceof QuarryException qe) {
      return qe.failure();
    }
    if (t instanceof ReplyException re) {
      return re.failureType() == ReplyFailure.RECIPIENT_FAILURE ? ofCode(re.failureCode()) : UNAVAILABLE;
    }
    return INTERNAL;
  }
}
