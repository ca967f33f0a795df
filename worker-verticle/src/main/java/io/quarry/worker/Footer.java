package io.quarry.worker;

import io.quarry.bus.Failure;
import io.quarry.bus.PrivateFiles;
import io.quarry.bus.QuarryException;
import io.quarry.bus.Sizes;
import io.quarry.bus.net.OutboundHttp.Exchange;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.file.OpenOptions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/**
 * The footer of a new version: the revalidation's answer (the file's last bytes) says how long it is, one more
 * range brings the rest of it; written at its place in a new file of the remote file's size.
 *
 * @param at       where the footer starts
 * @param heldFrom the first byte the copy now holds (the footer's start, or the tail's when it reaches further)
 * @param whole    the copy holds the whole file (a small one: {@code worker.wholeFileBelowBytes}, 256 KB by default,
 *                 costs less whole than in pieces: one request instead of one per column, and one database per
 *                 conversation instead of one more each time a query reads a column not fetched before): nothing
 *                 more is ever fetched
 */
record Footer(long at, long heldFrom, boolean whole) {

  private static final byte[] MAGIC = "PAR1".getBytes(StandardCharsets.US_ASCII);
  static Future<Footer> fetch(Vertx vertx, Exchange exchange, TailResponse tail, Path target, long maxFooterBytes,
      long wholeBelowBytes, RangeFetch ranges, RangeFetch.Version version) {
    String url = version.url().toString();
    if (tail.size() < 0 || tail.from() < 0) {
      exchange.discard();
      return Future.failedFuture(QueryFailure.network(url, "The server answered a range request without a valid"
          + " Content-Range"));
    }
    // The file's last bytes were asked for: bytes said to end elsewhere would be written at the wrong place, and the
    // engine would then fail on the copy as if the file were broken, when its server is.
    if (tail.to() != tail.size() || tail.from() >= tail.to()) {
      exchange.discard();
      return Future.failedFuture(QueryFailure.network(url, "The server sent other bytes than the range asked for ("
          + exchange.response().getHeader("Content-Range") + " for " + exchange.request().headers().get("Range") + ")"));
    }
    return body(exchange, tail.to() - tail.from()).onSuccess(bytes -> CacheMetrics.fetched(bytes.length()))
        .compose(bytes -> place(vertx, bytes, tail, target, maxFooterBytes, wholeBelowBytes, ranges, version));
  }

  /**
   * A new copy begun from the file's last bytes, {@code bytes} ({@code tail} says where they start and the file's
   * size): they are written at their place, and the rest of the footer fetched when they do not hold all of it.
   */
  static Future<Footer> place(Vertx vertx, Buffer bytes, TailResponse tail, Path target, long maxFooterBytes,
      long wholeBelowBytes, RangeFetch ranges, RangeFetch.Version version) {
    String url = version.url().toString();
    if (tail.from() == 0) {
      return write(vertx, target, bytes, 0).map(new Footer(0, 0, true));
    }
    if (tail.size() <= wholeBelowBytes) {
      return write(vertx, target, bytes, tail.from()).compose(v -> rest(ranges, version, target, 0, tail.from()))
          .map(new Footer(0, 0, true));
    }
    if (bytes.length() < 8 || !bytes.getBuffer(bytes.length() - 4, bytes.length()).equals(Buffer.buffer(MAGIC))) {
      return Future.failedFuture(QueryFailure.network(url, "The file is not Parquet: it does not end with PAR1"));
    }
    long length = Integer.toUnsignedLong(bytes.getIntLE(bytes.length() - 8)) + 8;
    if (length > maxFooterBytes) {
      return Future.failedFuture(new QuarryException(Failure.TOO_LARGE, "The metadata of the dataset at " + url
          + " is " + Sizes.human(length) + ", over the " + Sizes.human(maxFooterBytes) + " limit"));
    }
    long at = tail.size() - length;
    if (at < MAGIC.length) {
      return Future.failedFuture(QueryFailure.network(url, "The file is not Parquet: its footer is longer than it"));
    }
    Future<Void> written = write(vertx, target, bytes, tail.from());
    if (at >= tail.from()) {
      return written.map(new Footer(at, tail.from(), false));
    }
    return written.compose(v -> rest(ranges, version, target, at, tail.from())).map(new Footer(at, at, false));
  }

  private static Future<Void> rest(RangeFetch ranges, RangeFetch.Version version, Path target, long from, long to) {
    return ranges.into(version, target, ByteRange.requests(List.of(new ByteRange(from, to)), 0,
        RangeFetch.PIECE_BYTES), CacheMetrics::fetched).future();
  }

  /** The answer's body, which must be exactly {@code expected} bytes. */
  private static Future<Buffer> body(Exchange exchange, long expected) {
    Promise<Buffer> done = Promise.promise();
    Buffer bytes = Buffer.buffer();
    exchange.response().handler(chunk -> {
      bytes.appendBuffer(chunk);
      if (bytes.length() > expected && done.tryFail(new IllegalStateException(
          "The server sent more bytes than the range it announced"))) {
        exchange.discard();
      }
    });
    exchange.response().exceptionHandler(done::tryFail);
    exchange.response().endHandler(v -> {
      if (bytes.length() == expected) {
        done.tryComplete(bytes);
      } else {
        done.tryFail(new IllegalStateException("The server sent " + bytes.length() + " bytes of a range of " + expected));
      }
    });
    return done.future();
  }

  private static Future<Void> write(Vertx vertx, Path target, Buffer bytes, long at) {
    return vertx.fileSystem().open(target.toString(), new OpenOptions().setWrite(true).setCreateNew(true).setPerms(PrivateFiles.FILE))
        .compose(file -> file.write(bytes, at).eventually(file::close));
  }
}
