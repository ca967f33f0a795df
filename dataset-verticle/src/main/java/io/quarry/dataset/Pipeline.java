package io.quarry.dataset;

import io.quarry.bus.Failure;
import io.quarry.bus.QuarryException;
import io.quarry.bus.Source;
import io.quarry.bus.Sizes;
import io.quarry.bus.net.Deadline;
import io.quarry.bus.net.OutboundHttp;
import io.quarry.bus.net.OutboundHttp.Exchange;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteOrder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * Steps 2–4 of the seed's URL validation pipeline, each within its own time limit and failing with the
 * seed's exact message: HEAD for accessibility, the first four bytes for the magic number, then the
 * schema: the footer alone, read with explicit {@code bytes=a-b} ranges (last 8 bytes, then the
 * footer), so adding a multi-gigabyte file moves kilobytes; then the engine opens the file as every query
 * will (see {@link EngineSchema}), and its column types are the schema.
 *
 * <p>Fallbacks: a server that refuses HEAD (405/501) is probed by the ranged GET of step 3 instead. A
 * server that ignores {@code Range} (answers 200) has its request reset after the bytes needed; its
 * schema can then only be read by downloading the file, which is done for files up to
 * {@code rangelessMaxBytes} (default 64 MB) and refused with a clear reason above.
 */
final class Pipeline {

  static final String COULD_NOT_ACCESS = "Could not access URL";
  static final String NOT_PARQUET = "Not a valid parquet file";
  static final String NO_SCHEMA = "Could not read parquet schema";
  private static final byte[] MAGIC = "PAR1".getBytes(StandardCharsets.US_ASCII);

  record Settings(long headTimeoutMs, long magicTimeoutMs, long schemaTimeoutMs, long maxFileSize,
      long rangelessMaxBytes, int maxFooterBytes) {
  }

  /** What a successful pipeline learned; {@code columns} as {@code [{name, type, friendly_type}]}, the engine's. */
  record Loaded(long rowCount, JsonArray columns, long size, String etag) {
  }

  /** What step 2 and 3 learned about the file and its server. */
  private record Probe(long size, String etag, boolean rangeSupported) {
    Probe withSize(long newSize) {
      return new Probe(newSize, etag, rangeSupported);
    }

    Probe withRanges(boolean supported) {
      return new Probe(size, etag, supported);
    }
  }

  private final Vertx vertx;
  private final OutboundHttp http;
  private final Settings settings;
  private final EngineSchema engine;

  Pipeline(Vertx vertx, OutboundHttp http, Settings settings, EngineSchema engine) {
    this.vertx = vertx;
    this.http = http;
    this.settings = settings;
    this.engine = engine;
  }

  Future<Loaded> run(URI url) {
    return step(settings.headTimeoutMs(), COULD_NOT_ACCESS, d -> head(url, d))
        .compose(probe -> step(settings.magicTimeoutMs(), NOT_PARQUET, d -> magic(url, probe, d)))
        .compose(this::checkSize)
        .compose(probe -> step(settings.schemaTimeoutMs(), NO_SCHEMA, d -> schema(url, probe, d)));
  }

  /** A file's version as its server tells it now (step 2 alone): a size of -1 and no ETag when it does not say. */
  record Version(long size, String etag) {
  }

  Future<Version> version(URI url) {
    return step(settings.headTimeoutMs(), COULD_NOT_ACCESS, d -> head(url, d))
        .map(probe -> new Version(probe.size(), probe.etag()));
  }

  private Future<Probe> head(URI url, Deadline deadline) {
    return http.send(HttpMethod.HEAD, url, Map.of(), deadline).compose(exchange -> {
      int status = exchange.response().statusCode();
      exchange.discard();
      if (status == 405 || status == 501) {
        return Future.succeededFuture(new Probe(-1, null, true));
      }
      if (status / 100 != 2) {
        return fail(COULD_NOT_ACCESS, "The server answered HTTP " + status);
      }
      return Future.succeededFuture(new Probe(longHeader(exchange, "Content-Length"), version(exchange), true));
    });
  }

  private Future<Probe> magic(URI url, Probe probe, Deadline deadline) {
    return http.send(HttpMethod.GET, url, Map.of("Range", "bytes=0-3"), deadline).compose(exchange -> {
      int status = exchange.response().statusCode();
      if (status != 200 && status != 206) {
        exchange.discard();
        return fail(status == 416 ? NOT_PARQUET : COULD_NOT_ACCESS, "The server answered HTTP " + status);
      }
      Probe learned = probe.size() >= 0 ? probe
          : probe.withSize(status == 206 ? totalFromContentRange(exchange) : longHeader(exchange, "Content-Length"));
      Probe withEtag = learned.etag() == null ? new Probe(learned.size(), version(exchange), learned.rangeSupported())
          : learned;
      return BodyReader.read(exchange, 4, true).compose(head -> startsWithMagic(head)
          ? Future.succeededFuture(withEtag.withRanges(status == 206))
          : fail(NOT_PARQUET, "The file does not start with PAR1"));
    });
  }

  private Future<Probe> checkSize(Probe probe) {
    if (probe.size() > settings.maxFileSize()) {
      return Future.failedFuture(new QuarryException(Failure.BAD_REQUEST, "File is too large ("
          + Sizes.human(probe.size()) + "); the maximum is " + Sizes.human(settings.maxFileSize())));
    }
    return Future.succeededFuture(probe);
  }

  private Future<Loaded> schema(URI url, Probe probe, Deadline deadline) {
    if (probe.size() >= 0 && probe.size() < 12) {
      return fail(NO_SCHEMA, "The file is only " + probe.size() + " bytes long: too short for a Parquet footer");
    }
    Future<byte[]> footer = probe.rangeSupported() && probe.size() >= 0
        ? range(url, probe.size() - 8, probe.size() - 1, deadline)
            .compose(tail -> footerLength(tail, probe.size()))
            .compose(length -> range(url, probe.size() - 8 - length, probe.size() - 9, deadline))
        : wholeFileFooter(url, probe, deadline);
    return footer.compose(bytes -> {
      try {
        return Future.succeededFuture(ParquetFooter.rowCount(bytes));
      } catch (IOException | RuntimeException e) {
        return fail(NO_SCHEMA, "The footer could not be decoded: " + e.getMessage());
      }
    }).compose(rows -> engine.describe(url, new Source(null, url.toString(), probe.etag(), null, probe.size()),
            deadline.remainingMs())
        .map(columns -> new Loaded(rows, columns, probe.size(), probe.etag())));
  }

  private Future<Integer> footerLength(byte[] tail, long size) {
    if (tail.length != 8 || !regionIsMagic(tail, 4)) {
      return fail(NO_SCHEMA, "The file does not end with PAR1: it is truncated or corrupt");
    }
    int length = ByteBuffer.wrap(tail, 0, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
    if (length <= 0 || length > size - 12 || length > settings.maxFooterBytes()) {
      return fail(NO_SCHEMA, "The footer length " + length + " does not fit a file of " + size + " bytes");
    }
    return Future.succeededFuture(length);
  }

  private Future<byte[]> range(URI url, long from, long to, Deadline deadline) {
    return http.send(HttpMethod.GET, url, Map.of("Range", "bytes=" + from + "-" + to), deadline)
        .compose(exchange -> {
          if (exchange.response().statusCode() != 206) {
            exchange.discard();
            return fail(NO_SCHEMA, "The server answered HTTP " + exchange.response().statusCode()
                + " to a range request");
          }
          return BodyReader.read(exchange, to - from + 1, true).map(Buffer::getBytes);
        });
  }

  /** For servers without range support: download small files whole and take the footer from the end. */
  private Future<byte[]> wholeFileFooter(URI url, Probe probe, Deadline deadline) {
    long limit = settings.rangelessMaxBytes();
    if (probe.size() > limit) {
      return fail(NO_SCHEMA, "The server ignores HTTP Range requests; without them only files up to "
          + Sizes.human(limit) + " can be read");
    }
    return http.send(HttpMethod.GET, url, Map.of(), deadline)
        .compose(exchange -> BodyReader.read(exchange, limit, false))
        .recover(e -> e instanceof BodyReader.TooLong
            ? fail(NO_SCHEMA, "The server ignores HTTP Range requests; without them only files up to "
                + Sizes.human(limit) + " can be read")
            : Future.failedFuture(e))
        .compose(body -> {
          byte[] all = body.getBytes();
          if (all.length < 12) {
            return fail(NO_SCHEMA, "The file is only " + all.length + " bytes long: too short for a Parquet footer");
          }
          byte[] tail = java.util.Arrays.copyOfRange(all, all.length - 8, all.length);
          return footerLength(tail, all.length)
              .map(length -> java.util.Arrays.copyOfRange(all, all.length - 8 - length, all.length - 8));
        });
  }

  /** Runs a step under its deadline; any failure that is not already a clear refusal becomes the step's message. */
  private <T> Future<T> step(long timeoutMs, String message, Function<Deadline, Future<T>> work) {
    Deadline deadline = new Deadline(vertx, timeoutMs);
    Future<T> attempt;
    try {
      attempt = work.apply(deadline);
    } catch (RuntimeException e) {
      attempt = Future.failedFuture(e);
    }
    return deadline.close(attempt).recover(e -> Future.failedFuture(explain(e, message, timeoutMs)));
  }

  private static Throwable explain(Throwable e, String message, long timeoutMs) {
    if (e instanceof QuarryException) {
      return e;
    }
    if (e instanceof OutboundHttp.Refused) {
      return new QuarryException(Failure.BAD_REQUEST, e.getMessage());
    }
    if (e instanceof TimeoutException) {
      return new QuarryException(Failure.BAD_REQUEST, message, "No answer within " + Sizes.seconds(timeoutMs));
    }
    return new QuarryException(Failure.BAD_REQUEST, message, e.getMessage() == null ? e.toString() : e.getMessage());
  }

  private static <T> Future<T> fail(String message, String details) {
    return Future.failedFuture(new QuarryException(Failure.BAD_REQUEST, message, details));
  }

  private static boolean startsWithMagic(Buffer head) {
    return head.length() == 4 && regionIsMagic(head.getBytes(), 0);
  }

  private static boolean regionIsMagic(byte[] bytes, int offset) {
    for (int i = 0; i < 4; i++) {
      if (bytes[offset + i] != MAGIC[i]) {
        return false;
      }
    }
    return true;
  }

  private static long longHeader(Exchange exchange, String name) {
    try {
      String value = exchange.response().getHeader(name);
      return value == null ? -1 : Long.parseLong(value.strip());
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** The total of {@code Content-Range: bytes 0-3/12345}, or -1 when unknown. */
  private static long totalFromContentRange(Exchange exchange) {
    String value = exchange.response().getHeader("Content-Range");
    int slash = value == null ? -1 : value.lastIndexOf('/');
    try {
      return slash < 0 || value.endsWith("*") ? -1 : Long.parseLong(value.substring(slash + 1).strip());
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** What identifies this version of the file: its ETag, else its Last-Modified date. */
  private static String version(Exchange exchange) {
    String etag = exchange.response().getHeader("ETag");
    return etag != null ? etag : exchange.response().getHeader("Last-Modified");
  }
}
