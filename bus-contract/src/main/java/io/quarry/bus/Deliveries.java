package io.quarry.bus;

import io.vertx.core.eventbus.DeliveryOptions;

/** Delivery-option presets: every request names its timeout explicitly. */
public final class Deliveries {

  private Deliveries() {
  }

  /** Storage reads and writes: local SQLite, so a slow answer means trouble. */
  public static final long STORAGE_TIMEOUT_MS = 10_000;

  /** Adding or refreshing a dataset: the seed's pipeline timeouts (10 + 10 + 30 s) plus headroom. */
  public static final long DATASET_TIMEOUT_MS = 60_000;

  /**
   * How much longer than its own timeout a query request waits: the worker cancels the query at its
   * timeout (including any wait for a download) and still has to say so.
   */
  public static final long QUERY_GRACE_MS = 10_000;

  /**
   * How long past a query's limit a node waits for its own worker process (on loopback) before judging
   * it stuck and killing it: shorter than {@link #QUERY_GRACE_MS}, so the caller hears the timeout from the
   * node, not from its own wait.
   */
  public static final long LOCAL_WORKER_GRACE_MS = 5_000;

  /** How long a worker process waits for its node to take its ready announcement (both on loopback). */
  public static final long LOCAL_WORKER_READY_MS = 10_000;

  public static DeliveryOptions storage() {
    return new DeliveryOptions().setSendTimeout(STORAGE_TIMEOUT_MS);
  }

  public static DeliveryOptions dataset() {
    return new DeliveryOptions().setSendTimeout(DATASET_TIMEOUT_MS);
  }

  public static DeliveryOptions within(long timeoutMs) {
    return new DeliveryOptions().setSendTimeout(timeoutMs);
  }
}
