package io.quarry.bus;

import io.vertx.core.json.JsonObject;

/**
 * A worker process started and watched by a node: what it announces when it is ready, and what a
 * caller hears when it dies under a query.
 *
 * @param id this start of the process (a restarted worker has a new id, so nothing reaches a dead one)
 * @param memoryCapBytes the address-space limit the operating system enforces on it, or 0 when none
 */
public record LocalWorker(String id, long pid, String nodeId, long memoryCapBytes) {

  /** The query made its worker run out of memory (inside DuckDB, or the whole process). */
  public static final String OUT_OF_MEMORY = "The query used too much memory and was stopped";

  /** The worker process running the query died for another reason (killed, crashed). */
  public static final String STOPPED = "The query worker stopped unexpectedly";

  /**
   * A query that ran past its time limit: {@code what} says where it was (empty, or e.g. " while the data
   * was still downloading"). Said by the worker that cancels it, or by a node whose worker process never
   * answered and was killed for it.
   */
  public static String timedOut(long timeoutMs, String what) {
    return "Query timed out after " + Sizes.seconds(timeoutMs) + what + " and was cancelled";
  }

  public JsonObject toJson() {
    return new JsonObject().put("id", id).put("pid", pid).put("node_id", nodeId).put("memory_cap_bytes", memoryCapBytes);
  }

  public static LocalWorker fromJson(JsonObject json) {
    return new LocalWorker(json.getString("id"), json.getLong("pid", 0L), json.getString("node_id"),
        json.getLong("memory_cap_bytes", 0L));
  }
}
