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

  /** What DuckDB says when it fails within itself: not the statement's fault, so not for the model to correct. */
  static final String ENGINE_BUG = "The query engine failed on this query (an engine bug, not your SQL)";

  static QuarryException engineBug(String details) {
    return new QuarryException(Failure.INTERNAL, ENGINE_BUG, details);
  }

  /** A table whose file DuckDB cannot open: the statements that read it fail, the others run. */
  static QuarryException unreadable(String table, String reason) {
    return new QuarryException(Failure.BAD_REQUEST, "The query engine cannot read " + table + ": "
        + reason.lines().findFirst().orElse(reason), reason);
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
