package io.quarry.worker;

import io.quarry.bus.net.ConfiguredHeap;
import io.quarry.bus.net.Deadline;
import io.quarry.bus.net.OutboundHttp;
import io.quarry.bus.net.OutboundHttp.Exchange;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.file.AsyncFile;
import io.vertx.core.file.OpenOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.function.LongConsumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Fetches byte ranges of one version of a remote file into its local copy, at their own offsets, with at most
 * {@code parallel} requests under way at once (a connection each over HTTP/1.1), or up to {@link #streamCap} once
 * the origin answers over HTTP/2. Every response must be exactly the range asked for, of the same
 * version: {@code If-Range} makes a server that has changed the file answer with all of it instead, which
 * (like a different ETag or size) fails the transfer with {@link Changed}. A short body or a dropped
 * connection fails it too. {@link Transfer#cancel} resets what is under way. Used on the worker verticle's
 * event loop.
 */
final class RangeFetch {

  private static final Pattern CONTENT_RANGE = Pattern.compile("bytes (\\d+)-(\\d+)/(\\d+|\\*)");
  /** The most one request asks for: pieces are fetched in parallel, and a failed one costs little. */
  static final long PIECE_BYTES = 16L << 20;
  /**
   * The most requests one transfer has under way at once over HTTP/2, in a heap of 256 MB or more (see
   * {@link #maxStreams}): as many as OutboundHttp puts on an origin's connections.
   */
  static final int MAX_STREAMS = OutboundHttp.HTTP2_STREAMS;

  /** The version of a file that ranges are fetched from. */
  record Version(URI url, String etag, String lastModified, long size) {

    Map<String, String> headers(ByteRange range) {
      Map<String, String> headers = new HashMap<>();
      headers.put("Range", range.header());
      String validator = etag != null && !etag.startsWith("W/") ? etag : lastModified;
      if (validator != null) {
        headers.put("If-Range", validator);
      }
      return headers;
    }
  }

  /** The file changed on its server since its footer was read: the query runs again on the new version. */
  static final class Changed extends RuntimeException {
    final String url;

    Changed(String url) {
      super("The file at " + url + " changed while it was being read", null, false, false);
      this.url = url;
    }
  }

  /** One set of ranges being fetched; cancelling resets its requests and fails it. */
  static final class Transfer {
    private final Promise<Void> done = Promise.promise();
    private final List<Exchange> open = new ArrayList<>();

    Future<Void> future() {
      return done.future();
    }

    void cancel(Throwable why) {
      if (done.tryFail(why)) {
        open.forEach(Exchange::discard);
        open.clear();
      }
    }
  }

  private final Vertx vertx;
  private final OutboundHttp http;
  private final int parallel;
  private final long timeoutMs;
  /** {@link #maxStreams} for this JVM's heap. */
  private final int streamCap;

  RangeFetch(Vertx vertx, OutboundHttp http, int parallel, long timeoutMs) {
    this.vertx = vertx;
    this.http = http;
    this.parallel = parallel;
    this.timeoutMs = timeoutMs;
    this.streamCap = maxStreams(ConfiguredHeap.maxBytes());
  }

  /**
   * Each response buffers up to two blocks in memory while the block before is written (see {@link BlockWriter}), so
   * what a disk slower than the link piles up is two blocks a request under way: at most a quarter of the heap
   * ({@value #MAX_STREAMS} requests, 64 MB, in the 256 MB a worker has by default; 8 in the 64 MB least), beside what
   * the connections' flow-control windows let in meanwhile (an eighth each, see OutboundHttp).
   */
  static int maxStreams(long maxHeapBytes) {
    return (int) Math.max(8, Math.min(MAX_STREAMS, maxHeapBytes / 4 / (2L * BlockWriter.BLOCK_BYTES)));
  }

  /** Fetches {@code requests} into {@code file}; {@code received} is told of every chunk's length. */
  Transfer into(Version version, Path file, List<ByteRange> requests, LongConsumer received) {
    Transfer transfer = new Transfer();
    Deadline deadline = new Deadline(vertx, timeoutMs);
    Future<AsyncFile> opened = vertx.fileSystem().open(file.toString(),
        new OpenOptions().setWrite(true).setCreate(false).setTruncateExisting(false));
    opened.onFailure(transfer::cancel)
        .onSuccess(target -> new Requests(version, target, transfer, deadline, received, requests).next());
    deadline.close(transfer.future()).onComplete(ended -> opened.onSuccess(AsyncFile::close));
    return transfer;
  }

  /**
   * A transfer's requests: at most {@code parallel} under way, or more once the origin answers over HTTP/2 (see
   * {@link #widen}); the first failure cancels the rest.
   */
  private final class Requests {
    private final Version version;
    private final AsyncFile target;
    private final Transfer transfer;
    private final Deadline deadline;
    private final LongConsumer received;
    private final Queue<ByteRange> waiting;
    private int running;
    /** Requests under way at most: {@code parallel} until an answer over HTTP/2 allows more. */
    private int limit = parallel;

    Requests(Version version, AsyncFile target, Transfer transfer, Deadline deadline, LongConsumer received,
        List<ByteRange> requests) {
      this.version = version;
      this.target = target;
      this.transfer = transfer;
      this.deadline = deadline;
      this.received = received;
      this.waiting = new ArrayDeque<>(requests);
    }

    void next() {
      if (transfer.future().isComplete()) {
        return;
      }
      if (waiting.isEmpty() && running == 0) {
        transfer.done.tryComplete();
        return;
      }
      while (running < limit && !waiting.isEmpty()) {
        running++;
        fetch(waiting.poll()).onComplete(r -> {
          running--;
          if (r.failed()) {
            transfer.cancel(r.cause());
          }
          next();
        });
      }
    }

    private Future<Void> fetch(ByteRange range) {
      return http.send(HttpMethod.GET, version.url(), version.headers(range), deadline).compose(exchange -> {
        if (transfer.future().isComplete()) {
          exchange.discard();
          return Future.succeededFuture();
        }
        String problem = problem(version, range, exchange.response());
        if (problem != null) {
          exchange.discard();
          return Future.failedFuture(exchange.response().statusCode() == 200 || problem.isEmpty()
              ? new Changed(version.url().toString()) : QueryFailure.network(version.url().toString(), problem));
        }
        transfer.open.add(exchange);
        widen(exchange.streams());
        return write(exchange.response(), range, target, transfer, received)
            .onComplete(r -> transfer.open.remove(exchange));
      });
    }

    /**
     * An origin that answered over HTTP/2 carries many requests on one connection: the rest of the transfer goes out
     * at once, up to the streams it allows and {@link #streamCap}. Each request waits a round trip for its first
     * byte, so a far origin's link stays full only with many under way; widening once the first answer shows the
     * protocol costs nothing, as the first {@code parallel} keep the link busy meanwhile.
     */
    private void widen(long streams) {
      int wider = (int) Math.min(streamCap, streams);
      if (wider > limit) {
        limit = wider;
        next();
      }
    }
  }

  /** Null when the response is the range asked for, of the same version; empty when the file changed. */
  private static String problem(Version version, ByteRange range, HttpClientResponse response) {
    if (response.statusCode() == 200) {
      return "";
    }
    if (response.statusCode() != 206) {
      return "The server answered HTTP " + response.statusCode() + " to a request for bytes " + range.from() + "–"
          + (range.to() - 1);
    }
    String etag = response.getHeader("ETag");
    Matcher m = CONTENT_RANGE.matcher(String.valueOf(response.getHeader("Content-Range")));
    if ((version.etag() != null && etag != null && !etag.equals(version.etag()))
        || (m.matches() && !m.group(3).equals("*") && Long.parseLong(m.group(3)) != version.size())) {
      return "";
    }
    if (!m.matches() || Long.parseLong(m.group(1)) != range.from() || Long.parseLong(m.group(2)) != range.to() - 1) {
      return "The server sent other bytes than the range asked for (" + response.getHeader("Content-Range") + " for "
          + range.header() + ")";
    }
    return null;
  }

  /**
   * Chunks are gathered and written at their place a block at a time, one write under way per response: the response
   * is paused only while a full block waits for the write before it, so a slow disk slows the download, not memory,
   * and a fast one is not asked for a write per HTTP/2 frame (16 KB), each a trip to the blocking pool.
   */
  private static Future<Void> write(HttpClientResponse response, ByteRange range, AsyncFile target,
      Transfer transfer, LongConsumer received) {
    return new BlockWriter(response, range, target, transfer, received).written.future();
  }

  private static final class BlockWriter {
    private static final int BLOCK_BYTES = 1 << 20;

    private final Promise<Void> written = Promise.promise();
    private final HttpClientResponse response;
    private final ByteRange range;
    private final AsyncFile target;
    private final Transfer transfer;
    private final LongConsumer received;
    private Buffer pending = Buffer.buffer();
    /** Where the pending bytes go; every byte before it is written or being written. */
    private long at;
    private boolean writing;
    private boolean paused;
    private boolean ended;

    BlockWriter(HttpClientResponse response, ByteRange range, AsyncFile target, Transfer transfer,
        LongConsumer received) {
      this.response = response;
      this.range = range;
      this.target = target;
      this.transfer = transfer;
      this.received = received;
      this.at = range.from();
      response.handler(this::chunk);
      response.exceptionHandler(written::tryFail);
      response.endHandler(v -> {
        ended = true;
        flush();
      });
    }

    private void chunk(Buffer chunk) {
      if (transfer.future().isComplete() || at + pending.length() + chunk.length() > range.to()) {
        written.tryFail(new IllegalStateException("The server sent more bytes than the range asked for"));
        return;
      }
      pending.appendBuffer(chunk);
      if (writing && pending.length() >= BLOCK_BYTES && !paused) {
        paused = true;
        response.pause();
      }
      flush();
    }

    /**
     * Writes what is pending unless a write is under way (so a block is what arrived during the write before it); at
     * the end, checks every byte came.
     */
    private void flush() {
      if (writing || written.future().isComplete()) {
        return;
      }
      if (pending.length() == 0) {
        if (ended) {
          finish();
        }
        return;
      }
      Buffer block = pending;
      long position = at;
      pending = Buffer.buffer();
      at += block.length();
      writing = true;
      target.write(block, position).onComplete(w -> {
        writing = false;
        if (w.failed()) {
          written.tryFail(w.cause());
          return;
        }
        received.accept(block.length());
        if (paused) {
          paused = false;
          response.resume();
        }
        flush();
      });
    }

    private void finish() {
      if (at == range.to()) {
        written.tryComplete();
      } else {
        written.tryFail(new IllegalStateException("The server sent " + (at - range.from()) + " bytes for a range of "
            + range.length()));
      }
    }
  }
}
