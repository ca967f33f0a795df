package io.quarry.worker;

import io.quarry.bus.PrivateFiles;
import io.quarry.bus.net.OutboundHttp.Exchange;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.file.AsyncFile;
import io.vertx.core.file.OpenOptions;
import java.nio.file.Path;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Streams a whole response body to a new file: the path for servers that ignore {@code Range}. Bytes past
 * {@code limit} stop it with {@code overLimit}'s failure.
 */
final class FullDownload {

  private FullDownload() {
  }

  /**
   * The body waits (paused) until its file is open, so no byte arrives unhandled. Returns the bytes written;
   * on failure the file is deleted.
   */
  static Future<Long> to(Vertx vertx, Path part, Exchange exchange, Downloads.Download progress, long limit,
      Supplier<RuntimeException> overLimit) {
    exchange.response().pause();
    return vertx.fileSystem().open(part.toString(), new OpenOptions().setWrite(true).setCreateNew(true).setPerms(PrivateFiles.FILE))
        .compose(file -> {
          Future<Long> received = stream(exchange, file, progress, limit, overLimit);
          exchange.response().resume();
          return received.eventually(() -> file.close().otherwiseEmpty());
        })
        .onFailure(e -> {
          exchange.discard();
          vertx.fileSystem().delete(part.toString()).otherwiseEmpty();
        });
  }

  private static Future<Long> stream(Exchange exchange, AsyncFile file, Downloads.Download progress, long limit,
      Supplier<RuntimeException> overLimit) {
    Promise<Long> done = Promise.promise();
    Consumer<Throwable> stop = e -> {
      if (done.tryFail(e)) {
        exchange.discard();
      }
    };
    long[] received = {0};
    exchange.response().handler(chunk -> {
      if (done.future().isComplete()) {
        return; // chunks already on their way when the download stopped (its file is closed by then)
      }
      received[0] += chunk.length();
      progress.received(chunk.length());
      if (received[0] > limit) {
        stop.accept(overLimit.get());
        return;
      }
      file.write(chunk).onFailure(stop::accept);
      if (file.writeQueueFull()) {
        exchange.response().pause();
        file.drainHandler(v -> exchange.response().resume());
      }
    });
    exchange.response().exceptionHandler(stop::accept);
    exchange.response().endHandler(v -> file.flush().onComplete(flushed -> {
      if (flushed.succeeded()) {
        done.tryComplete(received[0]);
      } else {
        done.tryFail(flushed.cause());
      }
    }));
    return done.future();
  }
}
