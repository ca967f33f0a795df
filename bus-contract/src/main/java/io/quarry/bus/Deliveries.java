package io.quarry.bus;

import io.vertx.core.eventbus.DeliveryOptions;

/** Delivery-option presets: every request names its timeout explicitly (a query's, see {@link QueryTimeouts}). */
public final class Deliveries {

  private Deliveries() {
  }

  /** Storage reads and writes: local SQLite, so a slow answer means trouble. */
  public static final long STORAGE_TIMEOUT_MS = 10_000;

  /**
   * A request whose receiver makes a few storage requests in turn (a turn's start: the conversation, the token
   * window, the question): room for one of them to be sent again after its storage node died ({@link Failover}).
   */
  public static final long ACROSS_STORAGE_MS = 2 * STORAGE_TIMEOUT_MS + 5_000;

  /** Adding or refreshing a dataset: the seed's pipeline timeouts (10 + 10 + 30 s) plus headroom. */
  public static final long DATASET_TIMEOUT_MS = 60_000;

  /** How long a worker process waits for its node to take its ready announcement (both on loopback). */
  public static final long LOCAL_WORKER_READY_MS = 10_000;

  public static DeliveryOptions storage() {
    return new DeliveryOptions().setSendTimeout(STORAGE_TIMEOUT_MS);
  }

  public static DeliveryOptions acrossStorage() {
    return new DeliveryOptions().setSendTimeout(ACROSS_STORAGE_MS);
  }

  public static DeliveryOptions dataset() {
    return new DeliveryOptions().setSendTimeout(DATASET_TIMEOUT_MS);
  }

  public static DeliveryOptions within(long timeoutMs) {
    return new DeliveryOptions().setSendTimeout(timeoutMs);
  }
}
