package io.quarry.bus;

import io.vertx.core.json.JsonObject;

/**
 * Every wait on the query path, derived from the one query timeout ({@code query.timeoutMs}). Each hop waits
 * a little longer than the hop below it, so a caller hears the lower hop's own answer (the worker's "Query
 * timed out after …") rather than running out of patience first.
 *
 * @param queryMs how long a query may run, including any wait for its data to download
 */
public record QueryTimeouts(long queryMs) {

  /**
   * How long past a query's limit a worker pool waits for its member (on loopback) before judging it stuck
   * and killing it: shorter than {@link #WORKER_GRACE_MS}, so the caller hears the timeout from the pool.
   */
  private static final long MEMBER_GRACE_MS = 5_000;

  /** How much longer than the query a caller waits for a worker: it cancels at the limit and must say so. */
  private static final long WORKER_GRACE_MS = 10_000;

  /** A connection quiet this much longer than any query may take is closed. */
  private static final long CONNECTION_GRACE_MS = 30_000;

  public QueryTimeouts {
    if (queryMs < 1) {
      throw new IllegalArgumentException("query.timeoutMs must be at least 1 (it is " + queryMs + ")");
    }
  }

  /** From a role's configuration, which carries the node's {@code query} section (the default if absent). */
  public static QueryTimeouts from(JsonObject roleConfig) {
    return new QueryTimeouts(Defaults.section("query", roleConfig.getJsonObject("query")).getLong("timeoutMs"));
  }

  /** A query that names no limit gets the node's; one that names a longer one is held to it. */
  public long limit(long requestedMs) {
    return requestedMs > 0 ? Math.min(requestedMs, queryMs) : queryMs;
  }

  /** How long a pool waits for its member to answer a query that may run {@code limitMs}. */
  public static long memberWaitMs(long limitMs) {
    return limitMs + MEMBER_GRACE_MS;
  }

  /** How long a caller waits for {@code worker.query.run} with a query that may run {@code limitMs}. */
  public static long workerWaitMs(long limitMs) {
    return limitMs + WORKER_GRACE_MS;
  }

  /** How long the dataset verticle waits for one worker before it tries another. */
  public long workerWaitMs() {
    return workerWaitMs(queryMs);
  }

  /** How long a client waits for {@code dataset.query.run}: long enough for it to try two workers in turn. */
  public long datasetWaitMs() {
    return 2 * workerWaitMs();
  }

  /** How long an idle HTTP connection stays open: at least the configured time, and longer than any query. */
  public long connectionIdleMs(long configuredMs) {
    return Math.max(configuredMs, queryMs + CONNECTION_GRACE_MS);
  }
}
