package io.quarry.bus;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * One worker process of a node, as {@link Addresses#WORKER_LOCAL_STATUS} and
 * {@link Addresses#WORKER_LOCAL_EVENTS} carry it (and {@code /api/health} shows it).
 *
 * @param state {@code idle} (no process: none needed yet, or stopped after idling), {@code starting},
 *     {@code ready}, {@code restarting} or {@code stopped}
 * @param pid null while no process runs
 * @param memoryCapBytes null until the process said it is ready; 0 when it runs without a cap
 * @param lastExitAt null until a process of this slot died
 * @param lastExitCause the exit status and cause, e.g. "killed by signal 9"
 */
public record LocalWorkerStatus(String name, String state, Long pid, int restarts, int inFlight, Long memoryCapBytes,
    String lastExitAt, String lastExitCause) {

  public JsonObject toJson() {
    return new JsonObject()
        .put("name", name)
        .put("state", state)
        .put("pid", pid)
        .put("restarts", restarts)
        .put("in_flight", inFlight)
        .put("memory_cap_bytes", memoryCapBytes)
        .put("last_exit", lastExitAt == null ? null : new JsonObject().put("at", lastExitAt).put("cause", lastExitCause));
  }

  public static LocalWorkerStatus fromJson(JsonObject json) {
    JsonObject lastExit = json.getJsonObject("last_exit");
    return new LocalWorkerStatus(json.getString("name"), json.getString("state"), json.getLong("pid"),
        json.getInteger("restarts", 0), json.getInteger("in_flight", 0), json.getLong("memory_cap_bytes"),
        lastExit == null ? null : lastExit.getString("at"), lastExit == null ? null : lastExit.getString("cause"));
  }

  /**
   * The reply of {@link Addresses#WORKER_LOCAL_STATUS}: the node's settings, every one of its processes, and the
   * queries it holds until a process has room ({@code waiting}).
   */
  public record Pool(int count, int heapMb, long memoryCapMb, int waiting, List<LocalWorkerStatus> workers) {

    public JsonObject toJson() {
      return new JsonObject()
          .put("count", count)
          .put("heap_mb", heapMb)
          .put("memory_cap_mb", memoryCapMb)
          .put("waiting", waiting)
          .put("workers", new JsonArray(workers.stream().map(LocalWorkerStatus::toJson).toList()));
    }

    public static Pool fromJson(JsonObject json) {
      return new Pool(json.getInteger("count", 0), json.getInteger("heap_mb", 0), json.getLong("memory_cap_mb", 0L),
          json.getInteger("waiting", 0), json.getJsonArray("workers", new JsonArray()).stream()
              .map(w -> LocalWorkerStatus.fromJson((JsonObject) w)).toList());
    }
  }
}
