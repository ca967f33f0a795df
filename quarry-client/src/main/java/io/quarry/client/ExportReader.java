package io.quarry.client;

import io.quarry.bus.Deliveries;
import io.quarry.bus.Export;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.Message;
import io.vertx.core.streams.WriteStream;

/**
 * One export read into a stream, as a web node's download reads it: a chunk asked for ({@link Export#chunkAt}), written,
 * and the next asked for only once the stream has room, so that a slow stream holds the file back on its worker
 * instead of a gigabyte piling up here. The file is deleted at the end ({@link Export#done}), read or not.
 */
final class ExportReader {

  private final EventBus bus;
  private final Export.File file;
  private final WriteStream<Buffer> to;
  private final Promise<Void> read = Promise.promise();
  private long offset;

  ExportReader(EventBus bus, Export.File file, WriteStream<Buffer> to) {
    this.bus = bus;
    this.file = file;
    this.to = to;
  }

  Future<Void> start() {
    next();
    return read.future().transform(outcome -> bus.request(file.address(), Export.done(), Deliveries.storage())
        .transform(deleted -> outcome.succeeded() ? Future.<Void>succeededFuture() : Future.failedFuture(outcome.cause())));
  }

  private void next() {
    if (read.future().isComplete()) {
      return;
    }
    if (offset >= file.bytes()) {
      read.tryComplete();
      return;
    }
    bus.<Buffer>request(file.address(), Export.chunkAt(offset), Deliveries.storage()).map(Message::body)
        .onSuccess(this::write)
        .onFailure(read::tryFail);
  }

  private void write(Buffer chunk) {
    if (chunk.length() == 0) {
      // Shorter than its worker said: a reader must not take a cut file for a whole one.
      read.tryFail(new IllegalStateException("The export ended at byte " + offset + " of " + file.bytes()));
      return;
    }
    offset += chunk.length();
    to.write(chunk).onFailure(read::tryFail);
    if (to.writeQueueFull()) {
      to.drainHandler(v -> {
        to.drainHandler(null);
        next();
      });
    } else {
      next();
    }
  }
}
