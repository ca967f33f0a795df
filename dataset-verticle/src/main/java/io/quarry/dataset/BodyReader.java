package io.quarry.dataset;

import io.quarry.bus.net.OutboundHttp.Exchange;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;

/** Reads at most a given number of body bytes; the rest is never downloaded: the request is reset. */
final class BodyReader {

  private BodyReader() {
  }

  /** Thrown when a body is longer than allowed and {@code truncate} was false. */
  static final class TooLong extends RuntimeException {
    TooLong(long limit) {
      super("The body is longer than " + limit + " bytes", null, false, false);
    }
  }

  /**
   * The first {@code limit} bytes of the body. With {@code truncate}, a longer body is cut there and
   * the request reset; without it, a longer body fails with {@link TooLong}.
   */
  static Future<Buffer> read(Exchange exchange, long limit, boolean truncate) {
    Promise<Buffer> promise = Promise.promise();
    Buffer body = Buffer.buffer();
    exchange.response().handler(chunk -> {
      if (promise.future().isComplete()) {
        return;
      }
      long room = limit - body.length();
      if (chunk.length() < room) {
        body.appendBuffer(chunk);
        return;
      }
      if (truncate || chunk.length() == room) {
        body.appendBuffer(chunk, 0, (int) room);
        promise.tryComplete(body);
      } else {
        promise.tryFail(new TooLong(limit));
      }
      if (!(chunk.length() == room && contentLength(exchange) == limit)) {
        // Cut short: the rest is never downloaded. A body read to its end keeps its connection for the next request.
        exchange.request().reset();
      }
    });
    exchange.response().exceptionHandler(promise::tryFail);
    exchange.response().endHandler(v -> promise.tryComplete(body));
    exchange.response().resume();
    return promise.future();
  }

  /** The response's {@code Content-Length}, or -1 when it gives none that is a number. */
  static long contentLength(Exchange exchange) {
    try {
      String value = exchange.response().getHeader("Content-Length");
      return value == null ? -1 : Long.parseLong(value.strip());
    } catch (NumberFormatException e) {
      return -1;
    }
  }
}
