package io.quarry.dataset;

import io.quarry.bus.DataFormat;
import io.quarry.bus.Failure;
import io.quarry.bus.FileEnd;
import io.quarry.bus.QuarryException;
import io.quarry.bus.Source;
import io.quarry.bus.Sizes;
import io.quarry.bus.UrlSecrets;
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
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.function.Function;

/**
 * Steps 2–4 of the seed's URL validation pipeline, each within its own time limit and failing with the
 * seed's exact message, in as few round trips as a far origin allows. Two requests go out at once: the
 * file's last {@code tailBytes} ({@code Range: bytes=-N}, 64 KB by default), whose answer says the file is
 * there (step 2: its status), how large it is ({@code Content-Range}), which version it is, and holds the
 * footer of most files; and its first four bytes, the magic number (step 3). A footer longer than the tail
 * costs one more range (step 4). Then the engine opens the file as every query will (see {@link EngineSchema}),
 * and its column types are the schema. Adding a multi-gigabyte file moves kilobytes.
 *
 * <p>Fallbacks, the classic path: a server that ignores {@code Range} (answers 200), cannot serve a suffix
 * (416, as for an empty file) or gives no total in {@code Content-Range} is asked one step at a time: HEAD
 * for accessibility (a server that refuses HEAD, 405/501, is probed by the ranged GET of step 3 instead),
 * the first four bytes, the footer with explicit {@code bytes=a-b} ranges. A server that ignores
 * {@code Range} has its requests reset after the bytes needed; its schema can then only be read by
 * downloading the file, which is done for files up to {@code rangelessMaxBytes} (default 64 MB) and refused
 * with a clear reason above.
 */
final class Pipeline {

  static final String COULD_NOT_ACCESS = "Could not access URL";
  static final String NOT_PARQUET = "Not a valid parquet file";
  static final String NO_SCHEMA = "Could not read parquet schema";
  private static final byte[] MAGIC = "PAR1".getBytes(StandardCharsets.US_ASCII);
  private static final Pattern CONTENT_RANGE = Pattern.compile("bytes (\\d+)-(\\d+)/(\\d+)");

  /**
   * First bytes read by step 3, the seed's magic number: they also tell Parquet ({@code PAR1}), gzip and zstd apart,
   * and text that opens a JSON document from other text (see {@link FileSniff#format}).
   */
  static final int HEAD_BYTES = 4;

  /** @param textMaxBytes the largest CSV or JSON file: those are fetched whole */
  record Settings(long headTimeoutMs, long magicTimeoutMs, long schemaTimeoutMs, long maxFileSize,
      long rangelessMaxBytes, int maxFooterBytes, int tailBytes, long textMaxBytes) {

    Settings(long headTimeoutMs, long magicTimeoutMs, long schemaTimeoutMs, long maxFileSize, long rangelessMaxBytes,
        int maxFooterBytes, int tailBytes) {
      this(headTimeoutMs, magicTimeoutMs, schemaTimeoutMs, maxFileSize, rangelessMaxBytes, maxFooterBytes, tailBytes,
          2L << 30);
    }
  }

  /** What a successful pipeline learned; {@code columns} as {@code [{name, type, friendly_type}]}, the engine's. */
  record Loaded(long rowCount, JsonArray columns, long size, String etag, DataFormat format) {
  }

  /** What step 2 and 3 learned about the file and its server; {@code format} from step 3's first bytes. */
  private record Probe(long size, String etag, boolean rangeSupported, DataFormat format) {

    Probe(long size, String etag, boolean rangeSupported) {
      this(size, etag, rangeSupported, DataFormat.PARQUET);
    }
  }

  /** {@code Content-Range: bytes from-to/total}; null when absent, malformed, or of an unknown total ({@code /*}). */
  private record ContentRange(long from, long total) {
    static ContentRange of(Exchange exchange) {
      Matcher m = CONTENT_RANGE.matcher(String.valueOf(exchange.response().getHeader("Content-Range")).strip());
      try {
        return m.matches() ? new ContentRange(Long.parseLong(m.group(1)), Long.parseLong(m.group(3))) : null;
      } catch (NumberFormatException e) {
        return null;
      }
    }
  }

  /** The answer to the suffix range: the file's bytes from {@code from} to its end, not read yet. */
  private record Tail(Exchange exchange, long from, Probe probe) {

    /** The file's last bytes from {@code at}, for the worker that checks the file to start its copy from. */
    FileEnd end(URI url, long at, byte[] bytes) {
      var response = exchange.response();
      return new FileEnd(url.toString(), at, probe.size(), response.getHeader("ETag"),
          response.getHeader("Last-Modified"), response.getHeader("Cache-Control"), bytes);
    }
  }

  /** The footer, and the file's last bytes when the worker may start from them (null: it asks the server itself). */
  private record Read(byte[] footer, FileEnd end) {
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

  /** {@code conversationId}: the conversation the file is read for, whose queries' worker process checks it. */
  Future<Loaded> run(URI url, String conversationId) {
    Deadline magicDeadline = new Deadline(vertx, settings.magicTimeoutMs());
    Future<Probe> magic = step(magicDeadline, NOT_PARQUET, d -> magic(url, d));
    // A step failing first ends the magic-number request still under way: nothing waits for it.
    return step(settings.headTimeoutMs(), COULD_NOT_ACCESS, d -> tail(url, d))
        .compose(tail -> magic.transform(first -> first.succeeded() && first.result().format() != DataFormat.PARQUET
            ? text(url, conversationId, tail, first.result())
            : tail.isPresent() ? fromTail(url, conversationId, tail.get(), magic)
            : classic(url, conversationId, magic)))
        .onFailure(e -> magicDeadline.cancel());
  }

  /**
   * A CSV or JSON file: no footer to read, so a worker fetches it whole and DuckDB's reader says its columns and rows
   * (step 4), within the schema's limit; past {@link Settings#textMaxBytes} it is refused before a byte of it moves.
   */
  private Future<Loaded> text(URI url, String conversationId, Optional<Tail> tail, Probe first) {
    // The tail's few kilobytes are read, not reset: its connection stays for the worker's fetch, and the origin (this
    // node, for an upload) has no write cut short to log.
    tail.ifPresent(t -> BodyReader.read(t.exchange(), settings.tailBytes(), true)
        .onFailure(e -> t.exchange().discard()));
    Probe probe = tail.map(Tail::probe).orElse(first);
    DataFormat format = first.format();
    long limit = Math.min(settings.textMaxBytes(), settings.maxFileSize());
    if (probe.size() > limit) {
      return Future.failedFuture(new QuarryException(Failure.BAD_REQUEST, "File is too large ("
          + Sizes.human(probe.size()) + "); the maximum for a " + format.label() + " file, which is read whole, is "
          + Sizes.human(limit)));
    }
    Source version = new Source(null, url.toString(), probe.etag(), null, probe.size());
    // The worker fetches and reads it under the schema limit, which its pool counts (EngineSchema says how it fails).
    return engine.read(url, version, format, conversationId, settings.schemaTimeoutMs())
        .map(read -> new Loaded(read.rows(), read.columns(), probe.size(), probe.etag(), format));
  }

  /** The refusal of a file of {@code format} its reader cannot read: "Could not read the CSV file". */
  static String unreadable(DataFormat format) {
    return format == DataFormat.PARQUET ? NO_SCHEMA : "Could not read the " + format.label() + " file";
  }

  private Future<Loaded> fromTail(URI url, String conversationId, Tail tail, Future<Probe> magic) {
    return magic.compose(v -> checkSize(tail.probe()))
        .compose(probe -> schema(url, conversationId, probe, d -> footerInTail(url, tail, d)))
        .onFailure(e -> tail.exchange().discard());
  }

  /** {@code magic}: step 3, already asked; what its answer says of the file fills in what HEAD did not. */
  private Future<Loaded> classic(URI url, String conversationId, Future<Probe> magic) {
    return step(settings.headTimeoutMs(), COULD_NOT_ACCESS, d -> head(url, d))
        .compose(head -> magic.map(first -> new Probe(head.size() >= 0 ? head.size() : first.size(),
            head.etag() != null ? head.etag() : first.etag(), first.rangeSupported())))
        .compose(this::checkSize)
        .compose(probe -> schema(url, conversationId, probe, d -> (probe.rangeSupported() && probe.size() >= 0
            ? explicitFooter(url, probe, d) : wholeFileFooter(url, probe, d)).map(footer -> new Read(footer, null))));
  }

  /** A file's version as its server tells it now (step 2 alone): a size of -1 and no ETag when it does not say. */
  record Version(long size, String etag) {
  }

  Future<Version> version(URI url) {
    return step(settings.headTimeoutMs(), COULD_NOT_ACCESS, d -> head(url, d))
        .map(probe -> new Version(probe.size(), probe.etag()));
  }

  /** The suffix range's answer, or empty when the server cannot serve one and the classic path must ask. */
  private Future<Optional<Tail>> tail(URI url, Deadline deadline) {
    return http.send(HttpMethod.GET, url, Map.of("Range", "bytes=-" + settings.tailBytes()), deadline)
        .compose(exchange -> {
          int status = exchange.response().statusCode();
          ContentRange range = ContentRange.of(exchange);
          if (status == 206 && range != null) {
            exchange.response().pause();
            return Future.succeededFuture(Optional.of(new Tail(exchange, range.from(),
                new Probe(range.total(), version(exchange), true))));
          }
          if (status == 200 || status == 206 || status == 416) {
            exchange.discard();
            return Future.succeededFuture(Optional.empty());
          }
          return refused(url, exchange);
        });
  }

  private Future<Probe> head(URI url, Deadline deadline) {
    return http.send(HttpMethod.HEAD, url, Map.of(), deadline).compose(exchange -> {
      int status = exchange.response().statusCode();
      if (status / 100 != 2 && status != 405 && status != 501) {
        return refused(url, exchange);
      }
      exchange.discard();
      if (status == 405 || status == 501) {
        return Future.succeededFuture(new Probe(-1, null, true));
      }
      return Future.succeededFuture(new Probe(BodyReader.contentLength(exchange), version(exchange), true));
    });
  }

  /**
   * Step 3: the first four bytes ({@code Range: bytes=0-3}) must begin Parquet ({@code PAR1}), CSV or JSON, plain or
   * compressed (see {@link FileSniff#format}). The answer also says whether the server honours ranges, and the file's
   * size and version, for a server whose HEAD did not.
   */
  private Future<Probe> magic(URI url, Deadline deadline) {
    Map<String, String> first = Map.of("Range", "bytes=0-" + (HEAD_BYTES - 1));
    return http.send(HttpMethod.GET, url, first, deadline).compose(exchange -> {
      int status = exchange.response().statusCode();
      if (status == 416) {
        exchange.discard();
        return fail(NOT_PARQUET, answered(exchange));
      }
      if (status != 200 && status != 206) {
        return refused(url, exchange);
      }
      ContentRange range = ContentRange.of(exchange);
      long size = status != 206 ? BodyReader.contentLength(exchange) : range == null ? -1 : range.total();
      return BodyReader.read(exchange, HEAD_BYTES, true).compose(head -> FileSniff.format(head.getBytes(),
              url.getPath() == null ? "" : url.getPath())
          .map(format -> Future.succeededFuture(new Probe(size, version(exchange), status == 206, format)))
          .orElseGet(() -> fail(NOT_PARQUET, "The file does not start with PAR1"
              + FileSniff.looksLike(head.getBytes())
              + "; Quarry reads Parquet, CSV and JSON files")));
    });
  }

  private Future<Probe> checkSize(Probe probe) {
    if (probe.size() > settings.maxFileSize()) {
      return Future.failedFuture(new QuarryException(Failure.BAD_REQUEST, "File is too large ("
          + Sizes.human(probe.size()) + "); the maximum is " + Sizes.human(settings.maxFileSize())));
    }
    return Future.succeededFuture(probe);
  }

  /**
   * Step 4: the footer (as {@code footer} brings it) and its row count, then the engine's columns, within one limit.
   * The engine's part is the rest of it, counted by the worker's pool, which does not count a wait for its first
   * worker to start (EngineSchema says how it fails).
   */
  private Future<Loaded> schema(URI url, String conversationId, Probe probe,
      Function<Deadline, Future<Read>> footer) {
    Deadline limit = new Deadline(vertx, settings.schemaTimeoutMs());
    return step(limit, NO_SCHEMA, deadline -> {
      if (probe.size() >= 0 && probe.size() < 12) {
        return fail(NO_SCHEMA, "The file is only " + probe.size() + " bytes long: too short for a Parquet footer");
      }
      return footer.apply(deadline);
    }).compose(read -> {
      long rows;
      try {
        rows = ParquetFooter.rowCount(read.footer());
      } catch (IOException | RuntimeException e) {
        return fail(NO_SCHEMA, "The footer could not be decoded: " + e.getMessage());
      }
      return engine.describe(url, new Source(null, url.toString(), probe.etag(), null, probe.size()), read.end(),
              conversationId, limit.remainingMs(), limit.millis())
          .map(columns -> new Loaded(rows, columns, probe.size(), probe.etag(), DataFormat.PARQUET));
    });
  }

  /** The footer from the tail's bytes, and from one more range when it is longer than the tail. */
  private Future<Read> footerInTail(URI url, Tail tail, Deadline deadline) {
    deadline.track(tail.exchange().request());
    long size = tail.probe().size();
    long expected = size - tail.from();
    return BodyReader.read(tail.exchange(), expected, true).compose(body -> {
      if (body.length() != expected) {
        return fail(NO_SCHEMA, "The server sent " + body.length() + " bytes of the file's last " + expected);
      }
      byte[] bytes = body.getBytes();
      byte[] last8 = Arrays.copyOfRange(bytes, bytes.length - 8, bytes.length);
      return footerLength(last8, size).compose(length -> {
        long at = size - 8 - length;
        if (at >= tail.from()) {
          return Future.succeededFuture(new Read(Arrays.copyOfRange(bytes, (int) (at - tail.from()), bytes.length - 8),
              tail.end(url, tail.from(), bytes)));
        }
        return range(url, at, tail.from() - 1, deadline).map(before -> {
          byte[] end = Arrays.copyOf(before, before.length + bytes.length);
          System.arraycopy(bytes, 0, end, before.length, bytes.length);
          return new Read(Arrays.copyOf(end, end.length - 8),
              end.length <= FileEnd.MAX_BYTES ? tail.end(url, at, end) : null);
        });
      });
    });
  }

  private Future<byte[]> explicitFooter(URI url, Probe probe, Deadline deadline) {
    return range(url, probe.size() - 8, probe.size() - 1, deadline)
        .compose(tail -> footerLength(tail, probe.size()))
        .compose(length -> range(url, probe.size() - 8 - length, probe.size() - 9, deadline));
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
          byte[] tail = Arrays.copyOfRange(all, all.length - 8, all.length);
          return footerLength(tail, all.length)
              .map(length -> Arrays.copyOfRange(all, all.length - 8 - length, all.length - 8));
        });
  }

  /** Runs a step under its deadline; any failure that is not already a clear refusal becomes the step's message. */
  private <T> Future<T> step(long timeoutMs, String message, Function<Deadline, Future<T>> work) {
    return step(new Deadline(vertx, timeoutMs), message, work);
  }

  private <T> Future<T> step(Deadline deadline, String message, Function<Deadline, Future<T>> work) {
    Future<T> attempt;
    try {
      attempt = work.apply(deadline);
    } catch (RuntimeException e) {
      attempt = Future.failedFuture(e);
    }
    return deadline.close(attempt).recover(e -> Future.failedFuture(explain(e, message, deadline.millis())));
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
    return new QuarryException(Failure.BAD_REQUEST, message, OutboundHttp.reason(e));
  }

  /** The status and its reason phrase, as a user can look them up: "The server answered HTTP 404 Not Found". */
  private static String answered(Exchange exchange) {
    String reason = String.valueOf(exchange.response().statusMessage()).replaceAll("\\p{Cntrl}", "").strip();
    // The origin writes the phrase: shown as text, and kept short.
    reason = reason.equals("null") ? "" : reason.substring(0, Math.min(reason.length(), 60));
    return "The server answered HTTP " + exchange.response().statusCode() + (reason.isEmpty() ? "" : " " + reason);
  }

  /** "Could not access URL", or, for a signed link its origin says has expired, that it has (see ExpiredLinks). */
  private static <T> Future<T> refused(URI url, Exchange exchange) {
    String answered = answered(exchange);
    return ExpiredLinks.expired(url, exchange)
        .compose(expired -> fail(expired ? UrlSecrets.EXPIRED : COULD_NOT_ACCESS, answered));
  }

  private static <T> Future<T> fail(String message, String details) {
    return Future.failedFuture(new QuarryException(Failure.BAD_REQUEST, message, details));
  }

  private static boolean regionIsMagic(byte[] bytes, int offset) {
    for (int i = 0; i < 4; i++) {
      if (bytes[offset + i] != MAGIC[i]) {
        return false;
      }
    }
    return true;
  }

  /** What identifies this version of the file: its ETag, else its Last-Modified date. */
  private static String version(Exchange exchange) {
    String etag = exchange.response().getHeader("ETag");
    return etag != null ? etag : exchange.response().getHeader("Last-Modified");
  }
}
