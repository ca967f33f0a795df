package io.quarry.worker;

import io.quarry.bus.Failure;
import io.quarry.bus.QuarryException;
import io.quarry.bus.WorkerClient;

/** Builders for the worker's structured failures: {@code error_type} travels as the failure code. */
final class QueryFailure {

  private QueryFailure() {
  }

  static QuarryException sql(String message, String details) {
    return new QuarryException(Failure.SQL, message, details);
  }

  static QuarryException validation(String message) {
    return new QuarryException(Failure.BAD_REQUEST, message);
  }

  static QuarryException timeout(long timeoutMs, String what) {
    return new QuarryException(Failure.TIMEOUT, WorkerClient.timedOut(timeoutMs, what));
  }

  static QuarryException network(String url, String reason) {
    return QuarryException.unreachable(url, reason);
  }
}
