package io.quarry.bus;

import io.vertx.core.json.JsonObject;

/**
 * A worker process started and watched by a node, as it announces itself when it is ready. (What a
 * query's caller hears when a worker dies under it is in {@link WorkerClient}.)
 *
 * @param id this start of the process (a restarted worker has a new id, so nothing reaches a dead one)
 * @param memoryCapBytes the address-space limit the operating system enforces on it, or 0 when none
 */
public record LocalWorker(String id, long pid, long memoryCapBytes) {

  public JsonObject toJson() {
    return new JsonObject().put("id", id).put("pid", pid).put("memory_cap_bytes", memoryCapBytes);
  }

  public static LocalWorker fromJson(JsonObject json) {
    return new LocalWorker(json.getString("id"), json.getLong("pid", 0L), json.getLong("memory_cap_bytes", 0L));
  }
}
