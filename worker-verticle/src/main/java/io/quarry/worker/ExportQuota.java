package io.quarry.worker;

import io.quarry.bus.Export;
import io.quarry.bus.Failure;
import io.quarry.bus.QuarryException;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The bytes each user's exports hold on this worker's disk, files being written and files waiting to be read: at most
 * {@code export.maxBytes} together, so that more downloads at once are no way to hold more of the disk. A file being
 * written is measured every {@link #WATCH_MS} and its export stopped once its user's bytes pass the limit (the disk
 * holds at most what DuckDB writes in that time more); a written file counts exactly, until it is deleted. Used on the
 * verticle's event loop only.
 */
final class ExportQuota {

  static final long WATCH_MS = 100;

  private final Vertx vertx;
  private final Map<String, Long> held = new HashMap<>();

  ExportQuota(Vertx vertx) {
    this.vertx = vertx;
  }

  /** Counts {@code file}, about to be written for {@code userId}, until it is released; {@code stop} ends its writing. */
  Charge charge(String userId, Path file, long maxBytes, Runnable stop) {
    Charge charge = new Charge(userId, maxBytes);
    charge.timer = vertx.setPeriodic(WATCH_MS, t -> vertx.fileSystem().props(file.toString()).onSuccess(props -> {
      if (charge.watched && charge.resize(props.size())) {
        stop.run();
      }
    }));
    return charge;
  }

  private long held(String userId) {
    return held.getOrDefault(userId, 0L);
  }

  /** One export's file on this worker's disk, as its user's quota counts it. */
  final class Charge {
    private final String userId;
    private final long maxBytes;
    private long bytes;
    private long timer;
    private boolean watched = true;
    private boolean over;

    private Charge(String userId, long maxBytes) {
      this.userId = userId;
      this.maxBytes = maxBytes;
    }

    /** Whether its user's files passed the limit while it was written (its writing was stopped then). */
    boolean over() {
      return over;
    }

    /** It is written, {@code size} bytes: it fails (the caller deletes it) when its user's files now pass the limit. */
    Future<Void> written(long size) {
      unwatch();
      return resize(size) ? Future.failedFuture(failure()) : Future.succeededFuture();
    }

    /** Alone past the limit it is too large (413); else its user has too much in progress (429). */
    QuarryException failure() {
      return bytes > maxBytes ? new QuarryException(Failure.TOO_LARGE, Export.tooManyBytes(maxBytes))
          : new QuarryException(Failure.RATE_LIMITED, Export.tooManyBytesHeld(held(userId) - bytes, maxBytes));
    }

    /** Its file is deleted. */
    void release() {
      unwatch();
      resize(0);
    }

    private void unwatch() {
      watched = false;
      vertx.cancelTimer(timer);
    }

    private boolean resize(long size) {
      long total = held(userId) + size - bytes;
      bytes = size;
      if (total > 0) {
        held.put(userId, total);
      } else {
        held.remove(userId);
      }
      over = over || total > maxBytes;
      return total > maxBytes;
    }
  }
}
