package io.quarry.worker;

import java.util.concurrent.atomic.AtomicReference;

/**
 * A one-shot signal that stops a running statement. It may fire before the statement starts (arming it
 * then runs the stop at once, and the engine does not start the statement), while it runs, or after it
 * ended (nothing happens). Fired on an event loop, armed on a worker thread.
 */
final class Abort {

  private static final Runnable FIRED = () -> { };
  private final AtomicReference<Runnable> stop = new AtomicReference<>();

  void fire() {
    Runnable armed = stop.getAndSet(FIRED);
    if (armed != null && armed != FIRED) {
      armed.run();
    }
  }

  /** Arms {@code action} until the returned disarm runs. */
  Runnable arm(Runnable action) {
    if (!stop.compareAndSet(null, action)) {
      action.run();
      return () -> { };
    }
    return () -> stop.compareAndSet(action, null);
  }
}
