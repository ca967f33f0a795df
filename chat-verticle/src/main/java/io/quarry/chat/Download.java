package io.quarry.chat;

import io.quarry.bus.Export;
import io.quarry.bus.Failure;
import io.quarry.bus.Sizes;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One result's download, from its request to its end: while the worker writes the file, then while the file goes to
 * the browser a chunk at a time (the next is asked for when the browser has taken the last). It holds one of its
 * user's download slots and, once written, its worker's file until it ends, however it ends: whole, broken off,
 * abandoned by the browser, or too slow — less than {@code export.minBytesPerSecond} over {@code export.slowWindowMs},
 * since a reader that takes a byte now and then would otherwise hold its file, and its slot, for as long as it likes.
 */
final class Download {

  private static final Logger log = LoggerFactory.getLogger(Download.class);
  private static final long CHUNK_WAIT_MS = 30_000;

  private final Vertx vertx;
  private final RoutingContext ctx;
  private final HttpServerResponse response;
  private final ChatSettings.Exports limits;
  private final Runnable slot;
  private final Runnable stopQuery;
  /** Where the worker serves the file; null until it is written, and again once it is deleted. */
  private String address;
  private long bytes;
  private long offset;
  /** {@link #offset} at the last speed check. */
  private long checkedAt;
  private long speedTimer = -1;
  /** The chunk after the one being written, already on its way: the worker reads while the browser takes. */
  private Future<Buffer> ahead;
  /** It ended (its slot is free); a file written after, for a browser gone meanwhile, goes at once. */
  private boolean over;

  /** {@code slot}: released when it ends; {@code stopQuery}: stops the export's query while it runs. */
  Download(Vertx vertx, RoutingContext ctx, ChatSettings.Exports limits, Runnable slot, Runnable stopQuery) {
    this.vertx = vertx;
    this.ctx = ctx;
    this.response = ctx.response();
    this.limits = limits;
    this.slot = slot;
    this.stopQuery = stopQuery;
    response.closeHandler(v -> closed());
  }

  /** How long a refused download is told to wait: by then a stalled download of its user's has been ended. */
  static String retryAfter(ChatSettings.Exports limits) {
    return String.valueOf((limits.slowWindowMs() + 999) / 1_000);
  }

  /** Deletes an export's file; a worker that cannot be reached deletes it when it stays unread. */
  static Future<Void> delete(Vertx vertx, String address) {
    return vertx.eventBus().request(address, Export.done()).<Void>mapEmpty().otherwiseEmpty();
  }

  /** The file is written: it goes to the browser, unless the browser went away meanwhile. */
  void start(Export.File file, String name) {
    address = file.address();
    bytes = file.bytes();
    if (over || response.closed()) {
      ended();
      return;
    }
    response.putHeader("content-type", Export.contentType(file.format()))
        .putHeader("content-disposition", FileNames.attachment(name, file.format()))
        .putHeader("content-length", Long.toString(bytes))
        .putHeader("x-quarry-rows", Long.toString(file.rows()));
    watchSpeed();
    next();
  }

  /** No file to send: the error says why (a 429 when to try again), and the slot is free. */
  void refused(Throwable e) {
    if (Failure.classify(e) == Failure.RATE_LIMITED) {
      response.putHeader("Retry-After", retryAfter(limits));
    }
    HttpErrors.respondQuery(ctx, e);
    ended();
  }

  /** The browser went away, or the download was broken off: the query stops, or the file goes. */
  private void closed() {
    if (!over && address == null) {
      stopQuery.run();
    }
    ended();
  }

  private void ended() {
    over = true;
    vertx.cancelTimer(speedTimer);
    if (address != null) {
      delete(vertx, address);
      address = null;
    }
    slot.run();
  }

  private void watchSpeed() {
    long windowMs = limits.slowWindowMs();
    long least = limits.minBytesPerSecond() * windowMs / 1_000;
    speedTimer = vertx.setPeriodic(windowMs, t -> {
      long taken = offset - checkedAt;
      checkedAt = offset;
      if (taken < least && offset < bytes) {
        log.info("A download took {} in {}, less than {}/s (export.minBytesPerSecond): ended", Sizes.human(taken),
            Sizes.seconds(windowMs), Sizes.human(limits.minBytesPerSecond()));
        tooSlow();
      }
    });
  }

  /**
   * Nothing more is sent, the file goes and the slot is free at once. The connection closes once the browser has
   * taken what was already sent (Vert.x closes an HTTP/1 connection after its pending writes), or when it has been
   * idle for {@code chat.idleTimeoutMs}, whichever comes first; either way the browser sees a download cut short.
   */
  private void tooSlow() {
    ended();
    response.reset();
  }

  private void next() {
    if (address == null) {
      return; // ended: too slow
    }
    if (offset >= bytes) {
      // The file goes before the download ends, so a finished download leaves nothing behind.
      String written = address;
      address = null;
      delete(vertx, written).onComplete(v -> {
        response.end();
        ended();
      });
      return;
    }
    Future<Buffer> chunk = ahead != null ? ahead : read(offset);
    ahead = null;
    chunk.onSuccess(this::write).onFailure(this::failed);
  }

  private Future<Buffer> read(long at) {
    return vertx.eventBus().<Buffer>request(address, Export.chunkAt(at),
        new DeliveryOptions().setSendTimeout(CHUNK_WAIT_MS)).map(reply -> reply.body());
  }

  /** Once the file has begun, the browser can only be told by a download that breaks off. */
  private void failed(Throwable e) {
    if (response.headWritten()) {
      response.reset();
    } else {
      HttpErrors.respond(ctx, e);
      ended();
    }
  }

  private void write(Buffer chunk) {
    if (response.closed() || address == null) {
      return;
    }
    if (chunk.length() == 0) {
      // The file is shorter than its worker said: a cut download is better than a file that looks whole.
      response.reset();
      return;
    }
    offset += chunk.length();
    if (offset < bytes) {
      ahead = read(offset);
    }
    response.write(chunk);
    if (response.writeQueueFull()) {
      response.drainHandler(v -> {
        response.drainHandler(null);
        next();
      });
    } else {
      next();
    }
  }
}
