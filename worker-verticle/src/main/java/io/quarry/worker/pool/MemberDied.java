package io.quarry.worker.pool;

import io.quarry.bus.QuarryException;

/**
 * A member died with queries in flight. {@code failure} is what their callers hear, unless the pool runs them
 * again on another member, which it may when {@code retryable}: a read-only query is safe to run twice, but one
 * whose worker ran out of memory would most likely take the next worker down too.
 */
final class MemberDied extends RuntimeException {

  final transient QuarryException failure;
  final boolean retryable;

  MemberDied(QuarryException failure, boolean retryable) {
    super(failure.getMessage(), null, false, false);
    this.failure = failure;
    this.retryable = retryable;
  }
}
