package io.quarry.storage;

import io.vertx.core.Future;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Saves the time of a result's save from its query's answer: the dataset verticle names the result and
 * answers without waiting for the save. It stays correct because a read of a result whose save has not
 * ended yet waits for that save (whatever its outcome) before it reads, so nobody is told "Result not
 * found" for a result that is on its way. Only touched on the storage verticle's event loop.
 */
final class PendingSaves {

  private final Map<String, Future<Void>> saving = new HashMap<>();

  /** Runs the save of result {@code id}, known as pending until it ends. */
  Future<Void> save(String id, Future<Void> insert) {
    saving.put(id, insert);
    return insert.eventually(() -> {
      saving.remove(id);
      return Future.succeededFuture();
    });
  }

  /** Reads result {@code id} once its pending save, if any, has ended. */
  <T> Future<T> read(String id, Supplier<Future<T>> read) {
    return saving.getOrDefault(id, Future.succeededFuture()).transform(saved -> read.get());
  }
}
